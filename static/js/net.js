/**
 * Talking to the server: JSON over HTTP with Django's CSRF token, and a WebSocket
 * that survives network trouble.
 *
 * The socket gives every change a client id and keeps it until the server answers
 * (ack or error). A change unanswered for about 2.5 s is sent again with the same id,
 * and after a reconnect all unanswered ones go again; the server applies a repeated id
 * once. After about 5 s without an answer the page is told ("slow"). A heartbeat
 * (ping, answered pong) finds a dead socket the browser still thinks open. Pushed
 * states carry a version: an older or equal one is ignored, and a jump of more than
 * one asks the server for a fresh copy ("sync").
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
// A change without an answer is sent again (same id: the server applies it once)...
const RESEND_MS = 2500;
// ...and after this long the player is told the connection is struggling.
const SLOW_MS = 5000;
// A heartbeat: a socket that hears nothing for PING_MS is asked; without any answer
// within DEAD_MS more it is taken as dead (the browser may still think it open).
const PING_MS = 12000;
const DEAD_MS = 5000;
const CHECK_MS = 500;

function sessionPrefix() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One game's (or race's) socket.
 *
 *   const socket = new GameSocket("/ws/games/7/", {onState, onStatus, onGone, onMoved, onMessage});
 *   await socket.send({type: "move", move});   // resolves on ack, rejects with the refusal
 *
 * onState(message) gets each newer "state" message; onStatus(status, pending) reports
 * the connection: "open", "connecting", "offline", or "slow" (open, but a change has
 * waited SLOW_MS for its answer). onGone() is called when the server says the game is
 * not ours; onMoved(text) when it moved to an account (code "ownership_moved"); the
 * socket stops then. onMessage gets any other type. A refusal rejects with an Error
 * carrying the server's `code` and `data`.
 */
export class GameSocket {
  constructor(path, handlers = {}) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.handlers = handlers;
    this.version = -1;
    this.acked = -1; // the highest version an ack has named
    this.outbox = new Map(); // id -> {message, resolve, reject, sentAt, firstAt}, in sending order
    this.prefix = sessionPrefix();
    this.serial = 0;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.retryTimer = 0;
    this.heardAt = performance.now();
    this.pingAt = 0;
    this.shown = "";
    this.wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) {
        clearTimeout(this.retryTimer);
        this.connect();
      }
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.checker = setInterval(() => this.check(), CHECK_MS);
    this.connect();
  }

  status(value) {
    this.shown = value;
    if (this.handlers.onStatus) this.handlers.onStatus(value, this.pending);
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    this.status("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.heardAt = performance.now();
      this.pingAt = 0;
      this.status("open");
      // Whatever was not answered before the connection dropped goes again, in order;
      // the server applies each id once.
      const now = performance.now();
      for (const entry of this.outbox.values()) {
        entry.sentAt = now;
        ws.send(JSON.stringify(entry.message));
      }
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      this.heardAt = performance.now();
      this.pingAt = 0;
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
        this.stop("This game is not available to you any more.");
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

  /** Every CHECK_MS: resend what waits too long, ping a quiet socket, drop a dead one. */
  check() {
    if (this.closed || !this.isOpen) return;
    const now = performance.now();
    if (this.pingAt && now - this.pingAt > DEAD_MS) {
      // No answer to the heartbeat: the connection is gone, whatever the browser thinks.
      const ws = this.ws;
      this.ws = null; // its close event, whenever it comes, is then ignored
      try {
        ws.close();
      } catch {
        /* already closing */
      }
      this.status("offline");
      this.retryTimer = setTimeout(() => this.connect(), 200);
      return;
    }
    if (!this.pingAt && now - this.heardAt > PING_MS) {
      this.pingAt = now;
      // An id, so that a server without "ping" answers with an error we can recognise.
      this.raw({ type: "ping", id: `${this.prefix}-ping` });
    }
    let slow = false;
    for (const entry of this.outbox.values()) {
      if (now - entry.sentAt > RESEND_MS) {
        entry.sentAt = now;
        this.raw(entry.message);
      }
      if (now - entry.firstAt > SLOW_MS) slow = true;
    }
    if (slow && this.shown !== "slow") this.status("slow");
    else if (!slow && this.shown === "slow") this.status("open");
  }

  receive(message) {
    if (message.type === "pong") return;
    if (message.id === `${this.prefix}-ping`) return; // the answer to a heartbeat
    if (message.type === "state") {
      if (typeof message.version !== "number" || message.version <= this.version) return;
      const gap = this.version >= 0 && message.version > this.version + 1;
      this.version = message.version;
      if (this.handlers.onState) this.handlers.onState(message);
      // Something was missed in between; the state is whole, but make sure it is the latest.
      if (gap) this.raw({ type: "sync" });
      return;
    }
    if (message.type === "error" && message.code === "ownership_moved") {
      this.stop(message.error || "This game moved to your account.");
      if (this.handlers.onMoved) this.handlers.onMoved(message.error);
      return;
    }
    if (message.type === "ack" || message.type === "error") {
      const waiting = message.id != null ? this.outbox.get(message.id) : null;
      if (waiting) {
        this.outbox.delete(message.id);
        // The ack comes before the state it made: a change sent in between is made on
        // the acked version, not on the last state's.
        if (message.type === "ack" && typeof message.version === "number") {
          this.acked = Math.max(this.acked, message.version);
        }
        if (message.type === "ack") waiting.resolve(message);
        else waiting.reject(refusal(message));
        if (message.type === "ack" && typeof message.version === "number" && message.version > this.version + 1) {
          this.raw({ type: "sync" });
        }
        if (this.shown === "slow") this.check();
      } else if (message.type === "error" && this.handlers.onProblem) {
        this.handlers.onProblem(message.error, message.code);
      }
      return;
    }
    if (this.handlers.onMessage) this.handlers.onMessage(message);
  }

  raw(message) {
    if (this.isOpen) this.ws.send(JSON.stringify(message));
  }

  /** Send a change ({type, ...}); it gets an id and waits for its answer. */
  send(message) {
    const id = `${this.prefix}-${++this.serial}`;
    const full = { ...message, id };
    const now = performance.now();
    return new Promise((resolve, reject) => {
      this.outbox.set(id, { message: full, resolve, reject, sentAt: now, firstAt: now });
      this.raw(full);
    });
  }

  failAll(reason) {
    for (const { reject } of this.outbox.values()) reject(new Error(reason));
    this.outbox.clear();
  }

  /** The changes sent and not yet answered, oldest first. */
  get waiting() {
    return [...this.outbox.values()].map((entry) => entry.message);
  }

  get pending() {
    return this.outbox.size;
  }

  stop(reason) {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.checker);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    this.failAll(reason);
  }

  close() {
    this.stop("Closed.");
    if (this.ws) this.ws.close();
  }
}

/** A refusal as an Error: message is the server's words, code and data its details. */
function refusal(message) {
  const error = new Error(message.error || "Refused.");
  error.code = message.code || "refused";
  error.data = message.data && typeof message.data === "object" ? message.data : {};
  return error;
}
