// Reading the gateway's HTTP API from a page: the token as `Authorization: Bearer` (never in
// a URL, where logs would keep it), JSON back, a 429 or 503 retried after its Retry-After.

import { forPeople } from "./words.js";

const TRIES = 4;

export class ApiError extends Error { // the server's message in words for people
  constructor(status, message) {
    super(forPeople(message));
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

/** POST `body` (JSON) to `path` as the token's holder: the parsed JSON answer, or an ApiError
 * with the server's message and the field at fault (`error.field`). */
export function postJson(path, token, body) { return sendJson("POST", path, token, body); }

/** PUT `body` (JSON) to `path`, as `postJson`. */
export function putJson(path, token, body) { return sendJson("PUT", path, token, body); }

async function sendJson(method, path, token, body) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(path, { method, headers: {
      Authorization: `Bearer ${token}`, "Content-Type": "application/json",
      Accept: "application/json" }, body: JSON.stringify(body), cache: "no-store" });
    let answer = null;
    try { answer = await response.json(); } catch { /* not JSON */ }
    if (response.ok) return answer;
    if (![429, 503].includes(response.status) || attempt >= TRIES) {
      const error = new ApiError(response.status, (answer && answer.error) ||
        `${response.status}`);
      error.field = answer && answer.field;
      throw error;
    }
    const after = Number(response.headers.get("Retry-After")) || 1;
    await pause(Math.min(after, 10) * 1000);
  }
}

/** Download what GET `path` answers (an export) as a file named `filename`. */
export async function download(path, token, filename) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` },
    cache: "no-store" });
  if (!response.ok) {
    let message = `${response.status}`;
    try { message = (await response.json()).error || message; } catch { /* not JSON */ }
    throw new ApiError(response.status, message);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10000);
}
