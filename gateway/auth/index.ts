export {
  createTokenVerifier,
  tokenVerifierFor,
  oauthConfigOf,
  resourceUriOf,
  TokenRefused,
  IssuerUnavailable,
  type OAuthConfig,
  type TokenVerifier,
} from './oauth.ts';
export { challengeOf, metadataUrlOf, resourceMetadataOf, resourceMetadataRoutes } from './resource-server.ts';
export { missingScope, requiredScopes, toolScope } from './scopes.ts';
