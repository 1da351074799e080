// The authorization server of the OAuth tests: oidc-provider, issuing JWT access tokens by
// the client-credentials grant for one resource (RFC 8707), signed RS256 with keys it makes
// at start. Started as `node oidc_issuer.mjs PORT RESOURCE`; prints `listening on ISSUER`
// once it serves, and serves until killed.
import Provider from "oidc-provider";

const [port, resource] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const scope = "notes:read notes:write";

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: "notes-app",
      client_secret: "notes-app-secret",
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: "client_secret_basic",
      scope,
    },
    {
      client_id: "notes-reader",
      client_secret: "notes-reader-secret",
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: "client_secret_basic",
      scope: "notes:read",
    },
    {
      // A remote toolkit's client-credentials grant sends its secret in the request's body.
      client_id: "notes-agent",
      client_secret: "notes-agent-secret",
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: "client_secret_post",
      scope,
    },
  ],
  scopes: scope.split(" "),
  features: {
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator) => {
        if (indicator !== resource) {
          throw new Error(`unknown resource ${indicator}`);
        }
        return {
          scope,
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
});
// Tokens are asked for over plain http on this machine alone.
provider.proxy = false;
const server = provider.listen(Number(port), "127.0.0.1", () => {
  console.log(`listening on ${issuer}`);
});
process.on("SIGTERM", () => server.close());
