import type http from 'node:http';
import type Provider from 'oidc-provider';

/** The accounts' scopes, by account id: a grant never holds a scope its account may not have. */
export type AccountScopes = (accountId: string) => string[] | undefined;

/**
 * Serves `/interaction/<uid>` for the test provider. `form` false: the login completes by itself for the account the
 * authorization request's `login_hint` names (the tool server's tests drive the flow with fetch). `form` true: a real
 * HTML login page (login and password fields, a Sign-in button; any non-empty password, an unknown login is refused on
 * the page) and a consent page (a Continue button), as a person sees at an identity provider. Either way consent grants
 * the requested scopes the account may have and rejects the others.
 */
export function interactionHandler(provider: Provider, scopesOf: AccountScopes, form: boolean) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, uid: string, action: string | undefined) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (!form) {
      if (details.prompt.name === 'login')
        return login(provider, scopesOf, req, res, String(details.params.login_hint));
      return consent(provider, scopesOf, req, res);
    }
    if (req.method === 'GET') return page(res, uid, details.prompt.name === 'login' ? 'login' : 'consent');
    if (req.method === 'POST' && action === 'login' && details.prompt.name === 'login') {
      const body = new URLSearchParams(await readBody(req));
      const account = body.get('login') ?? '';
      if (!scopesOf(account) || !body.get('password'))
        return page(res, uid, 'login', 'Unknown login or empty password');
      return login(provider, scopesOf, req, res, account);
    }
    if (req.method === 'POST' && action === 'confirm' && details.prompt.name === 'consent')
      return consent(provider, scopesOf, req, res);
    res.statusCode = 400;
    res.end('unexpected interaction request');
  };
}

async function login(
  provider: Provider,
  scopesOf: AccountScopes,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  account: string,
) {
  if (!scopesOf(account)) throw new Error(`no test account ${JSON.stringify(account)} (send login_hint)`);
  return provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
}

async function consent(
  provider: Provider,
  scopesOf: AccountScopes,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  const accountId = String(details.session?.accountId ?? details.params.login_hint ?? '');
  const allowed = new Set(scopesOf(accountId) ?? []);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error('grant not found');
  const d = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
  if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
  for (const [resource, wanted] of Object.entries(d.missingResourceScopes ?? {})) {
    const granted = wanted.filter((s) => allowed.has(s));
    const refused = wanted.filter((s) => !allowed.has(s));
    if (granted.length) grant.addResourceScope(resource, granted.join(' '));
    if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const readBody = async (req: http.IncomingMessage) => {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 10_000) throw new Error('interaction body too large');
  }
  return body;
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: http.ServerResponse, uid: string, kind: 'login' | 'consent', error?: string) {
  const action = `/interaction/${encodeURIComponent(uid)}/${kind === 'login' ? 'login' : 'confirm'}`;
  const fields =
    kind === 'login'
      ? `<label>Login <input name="login" autocomplete="username" required autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign-in</button>`
      : '<p>The application asks for access to your account.</p><button type="submit">Continue</button>';
  res.statusCode = 200;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider: ${kind}</title></head>
<body><main><h1>${kind === 'login' ? 'Sign in' : 'Authorize'}</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="${escape(action)}">${fields}</form></main></body></html>`);
}
