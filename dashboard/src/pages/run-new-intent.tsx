/** The compiled intent of a request (`POST /v1/design-flows/intent`), shown before a run starts. */
import type { CompiledIntent } from '../api/runs.ts';
import { Section } from '../ui/section.tsx';

const list = (xs: string[]) => (xs.length ? xs.join('; ') : <span className="muted">none</span>);

export function IntentPreview(props: { intent: CompiledIntent }) {
  const it = props.intent;
  const p = it.parameters;
  const blocking = it.unknowns.filter((u) => u.blocking);
  return (
    <Section id="intent-h" testId="intent-preview" panel title="Compiled intent">
      {blocking.length > 0 ? (
        <div className="note warn" data-testid="blocking-unknowns">
          {blocking.length} blocking unknown{blocking.length === 1 ? '' : 's'}:{' '}
          {blocking.map((u) => u.question).join(' ')} The intent gate will hold on{' '}
          {blocking.length === 1 ? 'it' : 'them'}; answer in the request if you can.
        </div>
      ) : (
        <p className="muted" data-testid="blocking-unknowns">
          No blocking unknowns.
        </p>
      )}
      <dl className="kv">
        <dt>Goal</dt>
        <dd>
          {it.goal_type}: {it.goal_object}
        </dd>
        <dt>Objective</dt>
        <dd>{it.underlying_objective}</dd>
        <dt>Dimensions</dt>
        <dd>{p.dimensions_mm ? `${p.dimensions_mm.join(' × ')} mm` : <span className="muted">not stated</span>}</dd>
        <dt>Loads</dt>
        <dd>{p.loads.length ? p.loads.map((l) => `${l.magnitude_n} N at ${l.location}`).join('; ') : 'none stated'}</dd>
        <dt>Material</dt>
        <dd>
          {p.material ? (
            `${p.material.name} (yield ${p.material.yield_mpa} MPa)`
          ) : (
            <span className="muted">not stated</span>
          )}
        </dd>
        <dt>Safety factor</dt>
        <dd>{p.safety_factor ?? <span className="muted">not stated</span>}</dd>
        <dt>Budget</dt>
        <dd>{p.budget ? `${p.budget.amount} ${p.budget.currency}` : <span className="muted">not stated</span>}</dd>
        <dt>Deliverables</dt>
        <dd>{list(it.requested_deliverables)}</dd>
        <dt>Assumptions</dt>
        <dd>{list(it.assumptions)}</dd>
        <dt>Preferences</dt>
        <dd>{list(it.preferences)}</dd>
      </dl>
      <h3>Unknowns</h3>
      {it.unknowns.length ? (
        <ul data-testid="unknowns">
          {it.unknowns.map((u, i) => (
            <li key={i}>
              {u.blocking ? <span className="badge warn">blocking</span> : <span className="badge muted">open</span>}{' '}
              {u.question}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}
      <h3>Constraints and success criteria</h3>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Statement</th>
            <th scope="col">Metric and target</th>
          </tr>
        </thead>
        <tbody>
          {it.constraints.map((c, i) => (
            <tr key={`c${i}`}>
              <td>{c.category}</td>
              <td>{c.statement}</td>
              <td className="muted">—</td>
            </tr>
          ))}
          {it.success_criteria.map((s, i) => (
            <tr key={`s${i}`}>
              <td>success</td>
              <td>{s.criterion}</td>
              <td>{[s.metric, s.target].filter(Boolean).join(' ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Facts frozen with the flow:{' '}
        {Object.entries(it.facts)
          .map(([k, v]) => `${k} = ${String(v)}`)
          .join(', ') || 'none'}
      </p>
    </Section>
  );
}
