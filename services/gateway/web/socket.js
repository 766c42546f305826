// A table's socket (`/api/tables/{table}/feed`): the token as the first message, the states
// pushed by the server, events sent back with a `client_seq` each (a retry keeps its number,
// so the server folds it once), a ping to keep the line alive, and a reconnect that resumes
// after the last state read (`?since=<id>`).

import { t } from "./i18n.js";
import { forPeople } from "./words.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const TRIES = 4; // an event refused for now (503, 429) is sent again after its retry_after
const AGAIN = [429, 503]; // the gateway busy or a service away (503), a seat's rate (429)
const PING_MS = 25000;
const REFUSED = { 4401: "socket.refused4401", 4403: "socket.refused4403" }; // catalogue keys

/** What a page's connection line says of a socket's state (`onStatus`'s arguments). */
export function statusWords(state, detail) {
  if (state === "refused") return t("socket.refused", { detail });
  return { connecting: t("socket.connecting"), open: t("socket.open"),
    reconnecting: t("socket.reconnecting") }[state] || state;
}

export class TableSocket {
  /** `onState({id, version, board})`; `onStatus(state, detail)` with state "connecting",
   * "open", "reconnecting" or "refused". Another feed of the same protocol (the director's
   * alerts: `{id, alert}`) by its `path`. */
  constructor({ table, token, onState, onStatus = () => {}, path = null }) {
    Object.assign(this, { table, token, onState, onStatus });
    this.path = path || `/api/tables/${encodeURIComponent(table)}/feed`;
    this.lastId = null;
    this.ws = null;
    this.tries = 0;
    this.seq = Date.now(); // grows across boards and page loads
    this.waiting = new Map(); // client_seq → {body, resolve}
    this.stopped = false;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const since = this.lastId ? `?since=${encodeURIComponent(this.lastId)}` : "";
    return `${scheme}://${window.location.host}${this.path}${since}`;
  }

  start() {
    this.onStatus(this.tries ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.tries = 0;
      this.onStatus("open");
      for (const { body } of this.waiting.values()) ws.send(JSON.stringify(body)); // retries
      this.pinger = window.setInterval(() => this.raw({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (message) => this.received(message.data));
    ws.addEventListener("close", (event) => this.closed(event));
  }

  received(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if ((message.board !== undefined || message.alert !== undefined) && message.id) {
      this.lastId = message.id;
      this.onState(message);
    } else if (message.ack !== undefined) {
      const waiting = this.waiting.get(message.ack);
      if (waiting) {
        this.waiting.delete(message.ack);
        if (message.error) message.error = forPeople(message.error); // shown on the page
        waiting.resolve(message);
      }
    }
  }

  closed(event) {
    window.clearInterval(this.pinger);
    if (this.stopped) return;
    if (REFUSED[event.code]) {
      this.stopped = true;
      const why = t(REFUSED[event.code]);
      this.onStatus("refused", why);
      for (const { resolve } of this.waiting.values()) resolve({ error: why });
      this.waiting.clear();
      return;
    }
    if (event.code === 1008 && /since/.test(event.reason)) this.lastId = null; // read anew
    const wait = RETRY_MS[Math.min(this.tries, RETRY_MS.length - 1)];
    this.tries += 1;
    this.onStatus("reconnecting", `${event.code}`);
    window.setTimeout(() => this.start(), wait);
  }

  raw(body) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(body));
  }

  /** Send an event (`{type: "call", call: "1H", …}`): a promise of the server's reply,
   * `{ack, offset}` or `{ack, error, field, status}`. Sent again after a reconnect until
   * answered, and (with the same `client_seq`: folded once) after the `retry_after` of a
   * 503 or 429, up to TRIES times, as api.js does for HTTP. */
  async send(event) {
    this.seq += 1;
    const body = { ...event, client_seq: this.seq };
    for (let attempt = 1; ; attempt += 1) {
      const reply = await new Promise((resolve) => {
        this.waiting.set(body.client_seq, { body, resolve });
        this.raw(body);
      });
      if (!AGAIN.includes(reply.status) || !reply.retry_after || attempt >= TRIES ||
        this.stopped) return reply;
      await new Promise((resolve) => {
        window.setTimeout(resolve, Math.min(reply.retry_after, 10) * 1000);
      });
    }
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close(1000);
  }
}
