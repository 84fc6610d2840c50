/**
 * The Host and Origin rule (ADR 0100), pure. Every request's `Host` must name the address Forja
 * listens on, or a name in FORJA_PUBLIC_URL: a page on `evil.example` that re-points its DNS name at
 * 127.0.0.1 (DNS rebinding) still sends `Host: evil.example`. A state-changing request must come from Forja's
 * own pages: a foreign `Origin`, or `Sec-Fetch-Site: cross-site`, is refused, because a cross-site form post
 * needs no CORS preflight. Requests without these headers (curl, scripts, in-process tests) are not browsers
 * driven by a foreign page, and pass.
 */
export interface NetworkPolicy {
  /** HOST: the address Forja was told to listen on. */
  listenHost: string;
  /** The port, when the connection's own port is not known (requests made in-process). */
  port: number;
  /** FORJA_PUBLIC_URL: the addresses people reach Forja by (a reverse proxy, a DNS name). */
  publicUrls: readonly URL[];
}

export interface RequestFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The local port the connection arrived on, when there is a connection. */
  localPort?: number | undefined;
}

export type RuleBreach = {
  rule: 'host' | 'origin' | 'sec-fetch-site';
  code: 'host_not_allowed' | 'cross_site_request';
  message: string;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);
/** A bare host with an optional port; anything else (user info, paths, spaces) is not a Host header a browser sends. */
const HOST_SHAPE = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return (
    name === 'localhost' ||
    name === '::1' ||
    name === '[::1]' ||
    (IPV4.test(name) && name.startsWith('127.'))
  );
}

export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(host);
}

/** The breach of the rule, or null when the request may go on. */
export function checkRequestOrigin(
  request: RequestFacts,
  policy: NetworkPolicy,
): RuleBreach | null {
  const port = request.localPort ?? policy.port;
  if (request.host !== undefined && !hostAllowed(request.host, port, policy)) {
    return {
      rule: 'host',
      code: 'host_not_allowed',
      message: `Host "${request.host.slice(0, 100)}" is not an address Forja listens on (${allowedHostList(port, policy)}): requests must name Forja's own address (the Host rule, against DNS rebinding). To reach Forja by another name, add it to FORJA_PUBLIC_URL.`,
    };
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  if (request.secFetchSite?.toLowerCase() === 'cross-site') {
    return {
      rule: 'sec-fetch-site',
      code: 'cross_site_request',
      message:
        "A state-changing request sent from another site (Sec-Fetch-Site: cross-site) is refused: only Forja's own pages may change anything (the Origin rule).",
    };
  }
  if (request.origin !== undefined && !originAllowed(request.origin, port, policy)) {
    return {
      rule: 'origin',
      code: 'cross_site_request',
      message: `A state-changing request from Origin "${request.origin.slice(0, 100)}" is refused: only Forja's own pages (${allowedOriginList(port, policy)}) may change anything (the Origin rule).`,
    };
  }
  return null;
}

function hostAllowed(host: string, port: number, policy: NetworkPolicy): boolean {
  if (!HOST_SHAPE.test(host)) return false;
  const lower = host.toLowerCase();
  if (policy.publicUrls.some((url) => url.host === lower)) return true;
  const parsed = parseHost(lower);
  if (parsed === null || parsed.port !== port) return false;
  return (
    listenNames(policy).includes(parsed.name) ||
    (isWildcardHost(policy.listenHost) && isIpLiteral(parsed.name))
  );
}

function originAllowed(origin: string, port: number, policy: NetworkPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes "null": sandboxed frames, file: pages
  }
  if (url.origin !== origin.toLowerCase()) return false; // an Origin header is a bare origin, no path
  if (policy.publicUrls.some((publicUrl) => publicUrl.origin === url.origin)) return true;
  // Forja itself serves plain HTTP; a public name is allowed only with the scheme of its FORJA_PUBLIC_URL.
  return (
    url.protocol === 'http:' &&
    hostAllowed(url.host, port, policy) &&
    !policy.publicUrls.some((publicUrl) => publicUrl.host === url.host)
  );
}

/** The names that reach the listening address: the loopback names on loopback, else HOST itself. */
function listenNames(policy: NetworkPolicy): string[] {
  const host = policy.listenHost.toLowerCase();
  if (isLoopbackHost(host) || isWildcardHost(host)) return LOOPBACK_NAMES;
  return [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host];
}

function parseHost(host: string): { name: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return null;
  return { name: match[1]!, port: match[2] === undefined ? 80 : Number(match[2]) };
}

function isIpLiteral(name: string): boolean {
  return (
    (IPV4.test(name) && name.split('.').every((part) => Number(part) <= 255)) ||
    /^\[[0-9a-f:.]+\]$/.test(name)
  );
}

function allowedHostList(port: number, policy: NetworkPolicy): string {
  const names = listenNames(policy).map((name) => `${name}:${port}`);
  if (isWildcardHost(policy.listenHost)) names.push(`any IP address:${port}`);
  return [...names, ...policy.publicUrls.map((url) => url.host)].join(', ');
}

function allowedOriginList(port: number, policy: NetworkPolicy): string {
  return [
    ...listenNames(policy).map((name) => `http://${name}:${port}`),
    ...policy.publicUrls.map((url) => url.origin),
  ].join(', ');
}
