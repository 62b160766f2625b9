import type { Listing } from '../api/operations';

type Variable = { name: string; description: string; is_secret: boolean; is_required: boolean };

function Variables(props: { title: string; variables: Variable[] | undefined }) {
  if (props.variables === undefined || props.variables.length === 0) return null;
  return (
    <>
      <p>{props.title}</p>
      <ul>
        {props.variables.map((variable) => (
          <li key={variable.name}>
            <code>{variable.name}</code>
            {variable.is_required ? ' (required' : ' (optional'}
            {variable.is_secret ? ', secret)' : ')'}: {variable.description}
          </li>
        ))}
      </ul>
    </>
  );
}

/** How an agent connects to an MCP server: packages to run and hosted endpoints. */
export function Connection(props: { connection: NonNullable<Listing['connection']> }) {
  const { packages, remotes } = props.connection;
  return (
    <section aria-labelledby="connect">
      <h2 id="connect">Connecting</h2>
      {packages.map((pkg) => (
        <div key={`${pkg.registry_type}:${pkg.identifier}`}>
          <p>
            Package <code>{pkg.identifier}</code> on {pkg.registry_type}, over {pkg.transport}
            {pkg.runtime_hint === undefined ? '' : ` (run with ${pkg.runtime_hint})`}.
          </p>
          <Variables title="Environment variables:" variables={pkg.environment_variables} />
        </div>
      ))}
      {remotes.map((remote) => (
        <div key={remote.url}>
          <p>
            Remote endpoint <code>{remote.url}</code> over {remote.transport}.
          </p>
          <Variables title="Headers:" variables={remote.headers} />
        </div>
      ))}
    </section>
  );
}
