// A small MQTT 3.1.1 client over WebSockets, for pages that only listen.
//
// It does what the display, the overlay and the wall need and nothing else: CONNECT with a
// clean session (and an optional username and password), SUBSCRIBE at QoS 0 or 1, receive
// PUBLISH at any QoS (PUBACK for QoS 1, PUBREC/PUBCOMP for QoS 2), keep the connection
// alive with PINGREQ, notice a dead connection, and reconnect with backoff. It never
// publishes. See docs/display.md for why this is not a vendored mqtt.js.
//
//   const client = new MqttClient("ws://127.0.0.1:9001", {username, password});
//   client.subscribe("tabletop/table-1/state", 1);
//   client.on("message", (topic, payload, packet) => ...);   // payload: a string
//   client.on("status", (status, detail) => ...);   // "connecting" | "connected" | "offline"
//   client.connect();

const CONNECT = 1;
const CONNACK = 2;
const PUBLISH = 3;
const PUBACK = 4;
const PUBREC = 5;
const PUBREL = 6;
const PUBCOMP = 7;
const SUBSCRIBE = 8;
const SUBACK = 9;
const PINGREQ = 12;
const PINGRESP = 13;
const DISCONNECT = 14;

const REFUSALS = {
  1: "the broker refused the protocol version",
  2: "the broker refused the client id",
  3: "the broker is unavailable",
  4: "bad username or password",
  5: "not authorised",
};

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");

function utf8String(text) {
  const bytes = encoder.encode(text);
  if (bytes.length > 0xffff) throw new Error("MQTT string longer than 65535 bytes");
  return [bytes.length >> 8, bytes.length & 0xff, ...bytes];
}

function remainingLength(n) {
  const out = [];
  do {
    let digit = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) digit |= 0x80;
    out.push(digit);
  } while (n > 0);
  return out;
}

function packet(type, flags, body) {
  return new Uint8Array([(type << 4) | flags, ...remainingLength(body.length), ...body]);
}

function randomId() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class MqttClient {
  constructor(url, options = {}) {
    this.url = url;
    this.username = options.username || null;
    this.password = options.password || null;
    this.clientId = options.clientId || `companion-display-${randomId()}`;
    this.keepalive = Math.max(1, Math.round(options.keepalive || 30)); // seconds
    this.minDelay = options.minDelay || 500; // ms before the first reconnect
    this.maxDelay = options.maxDelay || 10000; // ms, the backoff's ceiling
    this.subscriptions = new Map(); // topic filter -> QoS
    this.handlers = { message: [], status: [] };
    this.status = "offline";
    this.socket = null;
    this.buffer = new Uint8Array(0);
    this.nextPacketId = 1;
    this.delay = this.minDelay;
    this.stopped = true;
    this.timers = { reconnect: null, ping: null, connect: null };
    this.lastReceived = 0;
    this.qos2 = new Set(); // QoS 2 packet ids delivered, awaiting PUBREL
  }

  on(name, handler) {
    this.handlers[name].push(handler);
    return this;
  }

  subscribe(filter, qos = 0) {
    this.subscriptions.set(filter, Math.min(1, Math.max(0, qos)));
    if (this.status === "connected") this._sendSubscribe([[filter, this.subscriptions.get(filter)]]);
    return this;
  }

  connect() {
    this.stopped = false;
    this._open();
    return this;
  }

  end() {
    this.stopped = true;
    clearTimeout(this.timers.reconnect);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this._send(packet(DISCONNECT, 0, []));
    }
    this._drop("closed");
  }

  // -- connection ------------------------------------------------------------------------

  _open() {
    this._setStatus("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url, ["mqtt"]);
    } catch (err) {
      this._drop(`cannot open ${this.url}: ${err.message}`);
      return;
    }
    this.socket = socket;
    this.buffer = new Uint8Array(0);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => this._sendConnect();
    socket.onmessage = (message) => this._receive(new Uint8Array(message.data));
    socket.onerror = () => {}; // onclose follows and says what matters
    socket.onclose = () => {
      if (this.socket === socket) this._drop("connection lost");
    };
    clearTimeout(this.timers.connect);
    this.timers.connect = setTimeout(() => {
      if (this.socket === socket && this.status !== "connected") this._drop("connect timed out");
    }, 10000);
  }

  _drop(reason) {
    const socket = this.socket;
    this.socket = null;
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.connect);
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      try {
        socket.close();
      } catch {
        // already closed
      }
    }
    this._setStatus("offline", reason);
    if (!this.stopped) {
      clearTimeout(this.timers.reconnect);
      const jitter = 0.8 + Math.random() * 0.4;
      this.timers.reconnect = setTimeout(() => this._open(), this.delay * jitter);
      this.delay = Math.min(this.maxDelay, this.delay * 2);
    }
  }

  _setStatus(status, detail = "") {
    this.status = status;
    for (const handler of this.handlers.status) handler(status, detail);
  }

  _send(bytes) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(bytes);
  }

  _sendConnect() {
    let flags = 0x02; // clean session
    const payload = utf8String(this.clientId);
    if (this.username !== null) {
      flags |= 0x80;
      payload.push(...utf8String(this.username));
      if (this.password !== null) {
        flags |= 0x40;
        payload.push(...utf8String(this.password));
      }
    }
    const header = [...utf8String("MQTT"), 4, flags, this.keepalive >> 8, this.keepalive & 0xff];
    this._send(packet(CONNECT, 0, [...header, ...payload]));
  }

  _sendSubscribe(entries) {
    if (entries.length === 0) return;
    const id = this._packetId();
    const body = [id >> 8, id & 0xff];
    for (const [filter, qos] of entries) body.push(...utf8String(filter), qos);
    this._send(packet(SUBSCRIBE, 0x02, body));
  }

  _packetId() {
    const id = this.nextPacketId;
    this.nextPacketId = id >= 0xffff ? 1 : id + 1;
    return id;
  }

  _startKeepalive() {
    clearInterval(this.timers.ping);
    this.lastReceived = performance.now();
    const period = (this.keepalive * 1000) / 2;
    this.timers.ping = setInterval(() => {
      if (performance.now() - this.lastReceived > this.keepalive * 1500) {
        this._drop("the broker stopped answering");
        return;
      }
      this._send(packet(PINGREQ, 0, []));
    }, period);
  }

  // -- receiving -------------------------------------------------------------------------

  _receive(chunk) {
    this.lastReceived = performance.now();
    // A WebSocket message may hold part of an MQTT packet, or several: keep a buffer.
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    let pos = 0;
    while (joined.length - pos >= 2) {
      let length = 0;
      let multiplier = 1;
      let i = pos + 1;
      let complete = false;
      for (; i < joined.length && i < pos + 5; i++) {
        length += (joined[i] & 0x7f) * multiplier;
        multiplier *= 128;
        if ((joined[i] & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (i >= pos + 5) {
          this._drop("malformed packet from the broker");
          return;
        }
        break; // the length itself is not all here yet
      }
      const start = i + 1;
      if (joined.length < start + length) break;
      const socket = this.socket;
      this._handle(joined[pos], joined.subarray(start, start + length));
      if (this.socket !== socket) return; // the packet closed the connection
      pos = start + length;
    }
    this.buffer = joined.slice(pos);
  }

  _handle(header, body) {
    const type = header >> 4;
    switch (type) {
      case CONNACK: {
        const code = body[1];
        if (code !== 0) {
          this._drop(REFUSALS[code] || `the broker refused the connection (${code})`);
          return;
        }
        clearTimeout(this.timers.connect);
        this.delay = this.minDelay;
        this._startKeepalive();
        this._setStatus("connected");
        this._sendSubscribe([...this.subscriptions.entries()]);
        return;
      }
      case PUBLISH:
        this._publish(header & 0x0f, body);
        return;
      case PUBREL: {
        const id = (body[0] << 8) | body[1];
        this.qos2.delete(id);
        this._send(packet(PUBCOMP, 0, [body[0], body[1]]));
        return;
      }
      case SUBACK:
      case PINGRESP:
      case PUBACK:
      case PUBREC:
      case PUBCOMP:
        return; // nothing to do: this client neither publishes nor checks grants
      default:
        this._drop(`unexpected packet type ${type} from the broker`);
    }
  }

  _publish(flags, body) {
    const qos = (flags >> 1) & 0x03;
    const retain = (flags & 0x01) === 1;
    const topicLength = (body[0] << 8) | body[1];
    const topic = decoder.decode(body.subarray(2, 2 + topicLength));
    let pos = 2 + topicLength;
    let id = 0;
    if (qos > 0) {
      id = (body[pos] << 8) | body[pos + 1];
      pos += 2;
    }
    const payload = decoder.decode(body.subarray(pos));
    if (qos === 1) this._send(packet(PUBACK, 0, [id >> 8, id & 0xff]));
    if (qos === 2) {
      this._send(packet(PUBREC, 0, [id >> 8, id & 0xff]));
      if (this.qos2.has(id)) return; // a resend before PUBREL: delivered already
      this.qos2.add(id);
    }
    for (const handler of this.handlers.message) {
      try {
        handler(topic, payload, { qos, retain });
      } catch (err) {
        console.error("message handler failed", topic, err);
      }
    }
  }
}
