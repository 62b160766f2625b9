/**
 * The limits of a capability request, in characters (Unicode code points) after trimming, and
 * how its text is trimmed and counted. Plain code: the schema, the service and the web app's
 * form all read them from here.
 */
export const TASK_MIN_CHARACTERS = 12;
export const TASK_MAX_CHARACTERS = 3000;
export const CONTACT_MAX_CHARACTERS = 254;

/** Spaces and invisible format characters (zero-width space, joiners, …) at either end. */
const EDGES = /^[\s\p{Cf}]+|[\s\p{Cf}]+$/gu;

/** Trimmed of what shows nothing at either end: a task of zero-width spaces is an empty task. */
export const trimmed = (text: string): string => text.replace(EDGES, '');

/** Length in characters (Unicode code points), not UTF-16 units: an emoji counts once. */
export const characters = (text: string): number => Array.from(text).length;
