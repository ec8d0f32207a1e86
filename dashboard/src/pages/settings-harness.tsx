/**
 * The harness part of Settings: providers (`GET /v1/harness/providers`: configured, last_fallback, fallback_count),
 * a provider credential (`POST /v1/harness/credentials`) and the model selection (`PUT /v1/harness/selection`).
 * SPEC Authentication rule 7: keys go to the gateway and are never stored in the browser (React state only, the key
 * field is cleared as soon as it is sent); the admin token is sent with each request and never saved. The spec does
 * not name the admin header; this page sends `X-Service-Admin-Token` (the spec's header naming).
 */
import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, When } from '../ui/common.tsx';
import { isRouteMissing, NotServed } from '../ui/not-served.tsx';
import { Section } from '../ui/section.tsx';

export const ADMIN_HEADER = 'X-Service-Admin-Token';

interface Provider {
  name?: string;
  id?: string;
  provider?: string;
  configured?: boolean;
  last_fallback?: unknown;
  fallback_count?: number;
  models?: string[];
}
type ProvidersAnswer = Provider[] | { providers?: Provider[]; selection?: { provider?: string; model?: string } };

const providerName = (p: Provider) => p.name ?? p.id ?? p.provider ?? '?';

export function HarnessSettings() {
  const queryClient = useQueryClient();
  const [adminToken, setAdminToken] = useState('');
  const providers = useQuery({
    queryKey: ['harness', 'providers'],
    queryFn: ({ signal }) => api<ProvidersAnswer>('/v1/harness/providers', { signal }),
  });
  const list = Array.isArray(providers.data) ? providers.data : (providers.data?.providers ?? []);
  const headers = () => (adminToken ? { [ADMIN_HEADER]: adminToken } : undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['harness'] });
  const missing = isRouteMissing(providers.error);

  return (
    <Section id="harness-h" testId="harness-settings" panel style={{ marginTop: 12 }} title="Model harness">
      {providers.isLoading && <Loading what="providers" />}
      {missing ? (
        <NotServed path="/v1/harness/providers" what="harness credentials or model selection" />
      ) : (
        <ErrorNote error={providers.error} prefix="Providers" />
      )}
      {providers.data && (
        <>
          {list.length === 0 ? (
            <Empty>The gateway lists no providers.</Empty>
          ) : (
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Configured</th>
                  <th scope="col" className="num">
                    Fallbacks
                  </th>
                  <th scope="col">Last fallback</th>
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={providerName(p)}>
                    <td>{providerName(p)}</td>
                    <td>{p.configured ? 'yes' : 'no'}</td>
                    <td className="num">{p.fallback_count ?? 0}</td>
                    <td>
                      {typeof p.last_fallback === 'string' ? (
                        <When at={p.last_fallback} />
                      ) : p.last_fallback ? (
                        <code>{JSON.stringify(p.last_fallback)}</code>
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="toolbar">
            <label>
              Admin token (sent with each request, never saved)
              <input
                type="password"
                name="admin-token"
                autoComplete="off"
                value={adminToken}
                onChange={(e) => setAdminToken(e.target.value)}
              />
            </label>
          </div>
          <CredentialForm providers={list} headers={headers} onDone={refresh} />
          <SelectionForm providers={list} headers={headers} onDone={refresh} />
        </>
      )}
    </Section>
  );
}

interface FormProps {
  providers: Provider[];
  headers: () => Record<string, string> | undefined;
  onDone: () => Promise<void>;
}

function ProviderSelect(props: { providers: Provider[]; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      Provider
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)} required>
        <option value="">Choose…</option>
        {props.providers.map((p) => (
          <option key={providerName(p)} value={providerName(p)}>
            {providerName(p)}
          </option>
        ))}
      </select>
    </label>
  );
}

function CredentialForm(props: FormProps) {
  const [provider, setProvider] = useState('');
  const [key, setKey] = useState('');
  // The key rides to the request through a ref emptied as it is read, so the mutation's variables (kept in memory by
  // the query library) name the provider only.
  const pending = useRef('');
  const send = useMutation({
    mutationFn: (target: string) => {
      const api_key = pending.current;
      pending.current = '';
      return api<unknown>('/v1/harness/credentials', {
        method: 'POST',
        body: { provider: target, api_key },
        headers: props.headers(),
      });
    },
    onSuccess: props.onDone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    pending.current = key;
    setKey(''); // the field is cleared as the key is sent
    send.mutate(provider);
  };
  return (
    <form className="toolbar" onSubmit={submit} aria-label="Provider credential">
      <ProviderSelect providers={props.providers} value={provider} onChange={setProvider} />
      <label>
        API key (sent to the gateway, not kept here)
        <input
          type="password"
          name="api-key"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
        />
      </label>
      <button type="submit" className="primary" disabled={send.isPending || !provider || !key}>
        Send credential
      </button>
      {send.isSuccess && <span role="status">Credential stored on the gateway for {send.variables}.</span>}
      <ErrorNote error={send.error} prefix="Credential refused" />
    </form>
  );
}

function SelectionForm(props: FormProps) {
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const models = props.providers.find((p) => providerName(p) === provider)?.models ?? [];
  const save = useMutation({
    mutationFn: (body: { provider: string; model: string }) =>
      api<unknown>('/v1/harness/selection', { method: 'PUT', body, headers: props.headers() }),
    onSuccess: props.onDone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ provider, model: model.trim() });
  };
  return (
    <form className="toolbar" onSubmit={submit} aria-label="Model selection">
      <ProviderSelect providers={props.providers} value={provider} onChange={setProvider} />
      <label>
        Model
        <input name="model" value={model} onChange={(e) => setModel(e.target.value)} list="harness-models" required />
      </label>
      <datalist id="harness-models">
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <button type="submit" disabled={save.isPending || !provider || !model.trim()}>
        Use this model
      </button>
      {save.isSuccess && (
        <span role="status">
          Selected {save.variables.provider}:{save.variables.model}.
        </span>
      )}
      <ErrorNote error={save.error} prefix="Selection refused (a model must fit its provider's family)" />
    </form>
  );
}
