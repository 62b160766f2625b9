/**
 * The limits of a capability request, in characters (Unicode code points) after trimming. Plain
 * data: the schema, the service and the web app's form all read them from here.
 */
export const TASK_MIN_CHARACTERS = 12;
export const TASK_MAX_CHARACTERS = 3000;
export const CONTACT_MAX_CHARACTERS = 254;
