import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GoogleEndpoints } from "~/auth.server";

/** What Google's userinfo endpoint answers for the account that "signs in". */
export interface StandInIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
}

export interface OAuthProvider {
  url: string;
  endpoints: GoogleEndpoints;
  /** The account the next authorization signs in as; null makes the listener press "Cancel" (access_denied). */
  nextIdentity: StandInIdentity | null;
  /** Query parameters of every authorization request, in order. */
  authorizationRequests: URLSearchParams[];
  /** Form bodies of every token request, in order. */
  tokenRequests: URLSearchParams[];
  stop(): Promise<void>;
}

/**
 * A local stand-in for Google's OAuth 2.0 endpoints: the authorization
 * endpoint redirects straight back with a one-time code and the state it was
 * given; the token endpoint trades the code (checking client id, secret and
 * redirect_uri) for an access token; userinfo answers for that token.
 */
export async function startOAuthProvider(client: { clientId: string; clientSecret: string }): Promise<OAuthProvider> {
  const codes = new Map<string, { identity: StandInIdentity; redirectUri: string }>();
  const tokens = new Map<string, StandInIdentity>();

  const provider: OAuthProvider = {
    url: "",
    endpoints: { authorizationURL: "", tokenURL: "", userInfoURL: "" },
    nextIdentity: null,
    authorizationRequests: [],
    tokenRequests: [],
    stop: async () => {},
  };

  function send(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", provider.url);
    if (req.method === "GET" && url.pathname === "/authorize") {
      const params = url.searchParams;
      provider.authorizationRequests.push(params);
      const redirectUri = params.get("redirect_uri");
      if (params.get("client_id") !== client.clientId || !redirectUri || params.get("response_type") !== "code") {
        return send(res, 400, { error: "invalid_request" });
      }
      const back = new URL(redirectUri);
      if (provider.nextIdentity) {
        const code = randomBytes(16).toString("hex");
        codes.set(code, { identity: provider.nextIdentity, redirectUri });
        back.searchParams.set("code", code);
      } else {
        back.searchParams.set("error", "access_denied");
      }
      const state = params.get("state");
      if (state !== null) back.searchParams.set("state", state);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/token") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const body = new URLSearchParams(raw);
      provider.tokenRequests.push(body);
      const grant = codes.get(body.get("code") ?? "");
      if (body.get("client_id") !== client.clientId || body.get("client_secret") !== client.clientSecret) {
        return send(res, 401, { error: "invalid_client" });
      }
      if (body.get("grant_type") !== "authorization_code" || !grant || grant.redirectUri !== body.get("redirect_uri")) {
        return send(res, 400, { error: "invalid_grant" });
      }
      codes.delete(body.get("code")!); // codes are single-use
      const accessToken = randomBytes(16).toString("hex");
      tokens.set(accessToken, grant.identity);
      return send(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3599, scope: "openid email profile", id_token: "stand-in" });
    }
    if (req.method === "GET" && url.pathname === "/userinfo") {
      const identity = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      return identity ? send(res, 200, identity) : send(res, 401, { error: "invalid_token" });
    }
    send(res, 404, { error: "not_found" });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provider.url = `http://127.0.0.1:${port}`;
  provider.endpoints = {
    authorizationURL: `${provider.url}/authorize`,
    tokenURL: `${provider.url}/token`,
    userInfoURL: `${provider.url}/userinfo`,
  };
  provider.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return provider;
}
