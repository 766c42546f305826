// Reading the gateway's HTTP API from a page: the token as `Authorization: Bearer` (never in
// a URL, where logs would keep it), JSON back, a 429 or 503 retried after its Retry-After.

const TRIES = 4;

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const pause = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

/** GET `path` (with its query) as the token's holder: the parsed JSON, or an ApiError that
 * says what the server said. */
export async function getJson(path, token) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(path, { headers: { Authorization: `Bearer ${token}`,
      Accept: "application/json" }, cache: "no-store" });
    if (response.ok) return response.json();
    let message = `${response.status}`;
    try { message = (await response.json()).error || message; } catch { /* not JSON */ }
    if (![429, 503].includes(response.status) || attempt >= TRIES) {
      throw new ApiError(response.status, message);
    }
    const after = Number(response.headers.get("Retry-After")) || 1;
    await pause(Math.min(after, 10) * 1000);
  }
}
