/**
 * Talking to the server: JSON over HTTP with Django's CSRF token, and a WebSocket
 * that survives network trouble.
 *
 * The socket gives every change a client id and keeps it until the server answers
 * (ack or error). After a reconnect it sends the unanswered ones again; the server
 * applies a repeated id once. Pushed states carry a version: an older or equal one is
 * ignored, and a jump of more than one asks the server for a fresh copy ("sync").
 *
 * This module knows message shapes, never what is on the table.
 */

export function cookie(name) {
  const match = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
}

export class HttpError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/** Fetch JSON; a non-2xx answer rejects with the server's "error" text. */
export async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken") || "";
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new HttpError("The server cannot be reached. Check your connection.", 0, null);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && data.error) || `The server answered ${response.status}.`;
    throw new HttpError(message, response.status, data);
  }
  return data;
}

const BACKOFF_MS = [300, 700, 1500, 3000, 6000, 10000];
const CLOSE_NOT_FOUND = 4404;

function sessionPrefix() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One game's socket.
 *
 *   const socket = new GameSocket("/ws/games/7/", {onState, onStatus, onGone, onMessage});
 *   await socket.send({type: "move", move});   // resolves on ack, rejects with the reason
 *
 * onState(message) gets each newer "state" message; onStatus("open"|"connecting"|
 * "offline") reports the connection; onGone() is called when the server says the
 * game is not ours (it will not reconnect then); onMessage gets any other type.
 */
export class GameSocket {
  constructor(path, handlers = {}) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.handlers = handlers;
    this.version = -1;
    this.outbox = new Map(); // id -> {message, resolve, reject}, in sending order
    this.prefix = sessionPrefix();
    this.serial = 0;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.retryTimer = 0;
    this.wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) {
        clearTimeout(this.retryTimer);
        this.connect();
      }
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  status(value) {
    if (this.handlers.onStatus) this.handlers.onStatus(value);
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.status("open");
      // Whatever was not answered before the connection dropped goes again, in order;
      // the server applies each id once.
      for (const { message } of this.outbox.values()) ws.send(JSON.stringify(message));
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === CLOSE_NOT_FOUND) {
        this.closed = true;
        this.failAll("This game is not available to you any more.");
        if (this.handlers.onGone) this.handlers.onGone();
        return;
      }
      if (this.closed) return;
      this.status("offline");
      const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      // Jitter, so that many clients of a restarted server do not return in step.
      this.retryTimer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
    };
  }

  receive(message) {
    if (message.type === "state") {
      if (typeof message.version !== "number" || message.version <= this.version) return;
      const gap = this.version >= 0 && message.version > this.version + 1;
      this.version = message.version;
      if (this.handlers.onState) this.handlers.onState(message);
      // Something was missed in between; the state is whole, but make sure it is the latest.
      if (gap) this.raw({ type: "sync" });
      return;
    }
    if (message.type === "ack" || message.type === "error") {
      const waiting = message.id != null ? this.outbox.get(message.id) : null;
      if (waiting) {
        this.outbox.delete(message.id);
        if (message.type === "ack") waiting.resolve(message);
        else waiting.reject(Object.assign(new Error(message.error || "Refused."), { code: message.code }));
        if (message.type === "ack" && typeof message.version === "number" && message.version > this.version + 1) {
          this.raw({ type: "sync" });
        }
      } else if (message.type === "error" && this.handlers.onProblem) {
        this.handlers.onProblem(message.error);
      }
      return;
    }
    if (this.handlers.onMessage) this.handlers.onMessage(message);
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Send a change ({type, ...}); it gets an id and waits for its answer. */
  send(message) {
    const id = `${this.prefix}-${++this.serial}`;
    const full = { ...message, id };
    return new Promise((resolve, reject) => {
      this.outbox.set(id, { message: full, resolve, reject });
      this.raw(full);
    });
  }

  failAll(reason) {
    for (const { reject } of this.outbox.values()) reject(new Error(reason));
    this.outbox.clear();
  }

  get pending() {
    return this.outbox.size;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.ws) this.ws.close();
    this.failAll("Closed.");
  }
}
