/*
 * A small client of the Chrome DevTools Protocol, over the pipe Chromium
 * opens with --remote-debugging-pipe (file descriptors 3 and 4, messages
 * ended by NUL): no websocket, no package, no browser download; Debian's
 * chromium. For the flame graph page's tests and bench.
 *   const page = await cdp.open(FILE); ... await page.close();
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "mip-chromium-"));
  const proc = spawn(CHROMIUM, [
    /* --no-sandbox: tests run as root; /dev/shm is small in containers */
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--no-default-browser-check", "--disable-extensions",
    "--remote-debugging-pipe", "--window-size=1200,900",
    "--user-data-dir=" + profile, "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => { stderr += d; });
  const pending = new Map();
  const listeners = [];
  let next = 1, buffer = "";
  proc.stdio[4].on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    let end;
    while ((end = buffer.indexOf("\0")) >= 0) {
      const msg = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (msg.id && pending.has(msg.id)) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(p.method + ": " + msg.error.message));
        else p.resolve(msg.result);
      } else if (msg.method) {
        listeners.forEach((f) => f(msg));
      }
    }
  });
  const exited = new Promise((resolve) => proc.on("exit", resolve));
  function send(method, params, sessionId) {
    const id = next++;
    const msg = { id, method, params: params || {} };
    if (sessionId) msg.sessionId = sessionId;
    proc.stdio[3].write(JSON.stringify(msg) + "\0");
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, method });
    });
  }
  async function close() {
    try { await send("Browser.close"); } catch (e) { proc.kill(); }
    await exited;
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return { send, listeners, close, stderr: () => stderr };
}

/* Opens file in a new headless browser; resolves once it has loaded. */
async function open(file) {
  const browser = launch();
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (m, p) => browser.send(m, p, sessionId);
  const errors = [];
  let loaded;
  const load = new Promise((resolve) => { loaded = resolve; });
  browser.listeners.push((msg) => {
    if (msg.sessionId !== sessionId) return;
    const p = msg.params;
    if (msg.method === "Page.loadEventFired") loaded();
    if (msg.method === "Runtime.exceptionThrown")
      errors.push("exception: " + (p.exceptionDetails.exception
        ? p.exceptionDetails.exception.description : p.exceptionDetails.text));
    if (msg.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert"))
      errors.push("console." + p.type + ": " + p.args.map((a) => a.value || a.description).join(" "));
    if (msg.method === "Log.entryAdded" && p.entry.level === "error")
      errors.push("log: " + p.entry.text + (p.entry.url ? " (" + p.entry.url + ")" : ""));
  });
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Log.enable");
  await send("Emulation.setDeviceMetricsOverride",
    { width: 1200, height: 900, deviceScaleFactor: 1, mobile: false });
  const started = Date.now();
  await send("Page.navigate", { url: "file://" + path.resolve(file) });
  await load;
  const page = {
    errors,
    loadMs: Date.now() - started,
    send,
    /* The value of a JavaScript expression in the page (awaited). */
    async evaluate(expression) {
      const r = await send("Runtime.evaluate",
        { expression, returnByValue: true, awaitPromise: true });
      if (r.exceptionDetails)
        throw new Error("evaluate: " + (r.exceptionDetails.exception
          ? r.exceptionDetails.exception.description : r.exceptionDetails.text));
      return r.result.value;
    },
    async click(x, y) {
      for (const type of ["mouseMoved", "mousePressed", "mouseReleased"])
        await send("Input.dispatchMouseEvent",
          { type, x, y, button: "left", clickCount: type === "mouseMoved" ? 0 : 1 });
    },
    async key(key, code, keyCode) {
      await send("Input.dispatchKeyEvent",
        { type: "keyDown", key, code, windowsVirtualKeyCode: keyCode });
      await send("Input.dispatchKeyEvent",
        { type: "keyUp", key, code, windowsVirtualKeyCode: keyCode });
    },
    async type(text) { await send("Input.insertText", { text }); },
    /* A PNG of the whole page, written to file; returns its pixels. */
    async screenshot(file) {
      const r = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
      const png = Buffer.from(r.data, "base64");
      fs.writeFileSync(file, png);
      return decodePng(png);
    },
    close: () => browser.close(),
  };
  return page;
}

/* The pixels of an 8-bit RGB or RGBA PNG without interlacing (what
 * Chromium writes): { width, height, channels, pixels }. */
function decodePng(png) {
  let at = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at), type = png.toString("ascii", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + len);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("PNG: not 8-bit, or interlaced");
      channels = { 2: 3, 6: 4 }[body[9]];
      if (!channels) throw new Error("PNG: colour type " + body[9]);
    } else if (type === "IDAT") {
      idat.push(body);
    }
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels, pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? pixels[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = v & 255;
    }
  }
  return { width, height, channels, pixels };
}

module.exports = { open, decodePng };
