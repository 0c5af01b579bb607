/*
 * The flame graph page of mipdata flamegraph (docs/mipdata.md). The data
 * (flame_page.c) hold, per view, a tree in depth-first order: each node's
 * distance up to its parent, label, line, flags and merged count (a
 * column of zeros as []), its width per metric (the
 * metric's MemInfoBlock field summed, to be multiplied by the metric's
 * scale) and, compared with a base, the base's self value per metric,
 * already scaled. Self values are a node's width less its children's.
 * The differential rule is flame_compare's (flame_tree.c), repeated here
 * because the neutral band can be changed on the page.
 */
(function () {
  "use strict";

  var FLAG_NEW = 1, FLAG_OTHER = 2, FLAG_LINES = 4;
  var ROW = 18;       /* pixels per frame */
  var MIN_PX = 0.5;   /* narrower frames (and what is above them) not drawn */
  var data = JSON.parse(document.getElementById("mip-flame-data").textContent);
  var metrics = data.metrics;
  var ALLOCS = metrics.findIndex(function (m) { return m.key === "allocs"; });
  var $ = function (id) { return document.getElementById(id); };
  var canvas = $("graph"), ctx = canvas.getContext("2d");

  /* ---- trees ------------------------------------------------------- */

  function Tree(t, compared, byTotal) {
    var n = t.label.length, zeros = new Float64Array(n);
    /* A column of all zeros comes as [] */
    function dense(a) { return a.length ? a : zeros; }
    this.byTotal = byTotal;
    this.n = n;
    this.parent = new Int32Array(n);
    this.parent[0] = -1;
    var up = dense(t.up);
    for (var i = 1; i < n; i++) this.parent[i] = i - up[i];
    this.label = t.label;
    this.line = dense(t.line);
    this.flags = dense(t.flags);
    this.merged = dense(t.merged);
    this.children = [];
    this.depth = new Int32Array(n);
    for (i = 0; i < n; i++) this.children.push([]);
    for (i = 1; i < n; i++) {
      this.children[this.parent[i]].push(i);
      this.depth[i] = this.depth[this.parent[i]] + 1;
    }
    this.width = [];
    this.self = [];
    for (var m = 0; m < metrics.length; m++) {
      var w = new Float64Array(n), s = new Float64Array(n), v = dense(t.width[m].v);
      for (i = 0; i < n; i++) w[i] = v[i] * metrics[m].scale;
      for (i = 0; i < n; i++) s[i] = w[i];
      for (i = 1; i < n; i++) s[this.parent[i]] -= w[i];
      for (i = 0; i < n; i++) if (s[i] < 0) s[i] = 0; /* rounding only */
      this.width.push(w);
      this.self.push(s);
    }
    this.base = compared ? t.base.map(function (b) { return dense(b.v); }) : null;
  }

  /* The value of metric m: the sum, or a mean over the allocations. */
  Tree.prototype.value = function (i, m) {
    if (!metrics[m].mean) return this.width[m][i];
    var a = this.width[ALLOCS][i];
    return a > 0 ? this.width[m][i] / a : 0;
  };
  Tree.prototype.selfValue = function (i, m) {
    if (!metrics[m].mean) return this.self[m][i];
    var a = this.self[ALLOCS][i];
    return a > 0 ? this.self[m][i] / a : 0;
  };
  Tree.prototype.name = function (i) {
    if (i === 0) return "all";
    if (this.flags[i] & FLAG_OTHER) return "other (" + this.merged[i] + " small frames)";
    return data.labels.name[this.label[i]];
  };
  Tree.prototype.file = function (i) {
    var l = this.label[i];
    return l >= 0 ? data.labels.file[l] : null;
  };

  /* flame_compare: the node's self value (by total: its value) against
   * the base's, scaled. */
  Tree.prototype.compare = function (i, m, band) {
    var cur = this.byTotal ? this.value(i, m) : this.selfValue(i, m);
    var d = {cur: cur, base: 0, change: cur, relative: 0, fromZero: false,
             kind: "same", grade: 0};
    if (this.flags[i] & FLAG_NEW) { d.kind = "added"; return d; }
    d.base = this.base[m][i];
    d.change = cur - d.base;
    if (d.base > 0) d.relative = d.change / d.base;
    else d.fromZero = cur > 0;
    var r = Math.abs(d.relative);
    if (!d.fromZero && r <= band) return d;
    d.kind = d.change > 0 ? "worse" : "better";
    d.grade = d.fromZero || r >= 1 ? 4 : r >= 0.5 ? 3 : r >= 0.25 ? 2 : 1;
    return d;
  };

  var views = {};
  ["flame", "icicle"].forEach(function (v) {
    var d = data.views[v];
    views[v] = {tree: new Tree(d.tree, !!data.base, d.by_total),
                elided: d.elided ? new Tree(d.elided, false, d.by_total) : null,
                changes: d.changes};
  });

  /* ---- state ------------------------------------------------------- */

  var state = {
    view: "flame",
    metric: Math.max(0, metrics.findIndex(function (m) { return m.key === data.metric; })),
    elided: false,
    zoom: 0,
    selected: -1,
    band: data.band,
    search: null,
    theme: window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches
      ? "dark" : "light"
  };
  var boxes = [];      /* what the last draw drew */
  var firstDraw = null;

  function tree() {
    var v = views[state.view];
    return state.elided && v.elided ? v.elided : v.tree;
  }
  function differential() { return !!data.base && !state.elided; }

  /* ---- numbers ----------------------------------------------------- */

  var BYTE_UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
  function exact(v) {
    return Math.abs(v) >= 1e15 ? v.toExponential(4)
      : Number.isInteger(v) ? v.toLocaleString("en-US")
      : v.toPrecision(4);
  }
  function amount(v, m) {
    var unit = metrics[m].unit;
    if (unit === "bytes" && Math.abs(v) >= 1024) {
      var k = 0, x = v;
      while (Math.abs(x) >= 1024 && k < BYTE_UNITS.length - 1) { x /= 1024; k++; }
      return x.toFixed(1) + " " + BYTE_UNITS[k] + " (" + exact(Math.round(v)) + " bytes)";
    }
    return exact(v) + " " + unit;
  }
  function percent(x) {
    return isFinite(x) ? (x * 100).toFixed(x * 100 >= 10 ? 1 : 2) + " %" : "-";
  }
  function share(t, i, m) {
    var root = t.width[m][0];
    return root > 0 ? t.width[m][i] / root : 0;
  }

  /* ---- colours ----------------------------------------------------- */

  function hash(s) {
    var h = 2166136261;
    for (var k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619);
    return (h >>> 0) / 4294967296;
  }
  var DIFF_LIGHTNESS = [0, 80, 70, 58, 46];
  function colour(t, i) {
    var dark = state.theme === "dark";
    if (state.search && matches(t, i)) return dark ? "hsl(120,60%,40%)" : "hsl(120,70%,45%)";
    if (t.flags[i] & FLAG_OTHER) return dark ? "hsl(0,0%,32%)" : "hsl(0,0%,72%)";
    if (state.elided) return "hsl(35," + (20 + 20 * hash(t.name(i))) + "%,60%)";
    if (differential()) {
      var d = t.compare(i, state.metric, state.band);
      if (d.kind === "added") return "hsl(280,60%,58%)";
      if (d.kind === "same") return dark ? "hsl(0,0%,45%)" : "hsl(0,0%,82%)";
      var l = DIFF_LIGHTNESS[d.grade];
      return d.kind === "worse" ? "hsl(0,80%," + l + "%)" : "hsl(215,80%," + l + "%)";
    }
    var h = hash(t.name(i));
    return "hsl(" + Math.round(10 + 40 * h) + ",85%," + Math.round(55 + 10 * h) + "%)";
  }
  function kindOf(t, i) {
    if (state.search && matches(t, i)) return "matched";
    if (t.flags[i] & FLAG_OTHER) return "other";
    if (state.elided) return "elided";
    if (!differential()) return "plain";
    return t.compare(i, state.metric, state.band).kind;
  }

  /* ---- search ------------------------------------------------------ */

  function matches(t, i) {
    return i > 0 && !(t.flags[i] & FLAG_OTHER) && state.search.test(t.name(i));
  }
  /* The share of the whole under matched frames, each counted once. */
  function matchedShare(t, m) {
    var total = 0, frames = 0, stack = [0];
    while (stack.length) {
      var i = stack.pop();
      if (matches(t, i)) { total += t.width[m][i]; frames++; continue; }
      Array.prototype.push.apply(stack, t.children[i]);
    }
    var root = t.width[m][0];
    return {share: root > 0 ? total / root : 0, frames: frames};
  }

  /* ---- layout and drawing ------------------------------------------ */

  function path(t, i) {
    var p = [];
    for (; i >= 0; i = i === 0 ? -1 : t.parent[i]) p.unshift(i);
    return p;
  }

  /* The boxes to draw: the zoomed frame's callers full width, then its
   * subtree in proportion, frames narrower than MIN_PX left out. */
  function layout(t, m, width) {
    var out = [], z = state.zoom;
    path(t, z).forEach(function (i) {
      out.push({i: i, x: 0, w: width, depth: t.depth[i]});
    });
    out.pop();
    var zw = t.width[m][z];
    var scale = zw > 0 ? width / zw : 0;
    var stack = [[z, 0, width]];
    while (stack.length) {
      var e = stack.pop(), i = e[0], x = e[1];
      out.push({i: i, x: x, w: e[2], depth: t.depth[i]});
      var kids = t.children[i];
      for (var k = 0; k < kids.length; k++) {
        var w = t.width[m][kids[k]] * scale;
        if (w >= MIN_PX) stack.push([kids[k], x, w]);
        x += w;
      }
    }
    return out;
  }

  function draw() {
    var t = tree(), m = state.metric;
    var cssWidth = canvas.parentNode.clientWidth;
    var laid = layout(t, m, cssWidth);
    var maxDepth = 0;
    laid.forEach(function (b) { if (b.depth > maxDepth) maxDepth = b.depth; });
    var height = (maxDepth + 1) * ROW;
    var dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(cssWidth * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.height = height + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
    ctx.fillRect(0, 0, cssWidth, height);
    ctx.font = "12px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    var icicle = state.view === "icicle";
    boxes = laid.map(function (b) {
      var y = icicle ? b.depth * ROW : height - (b.depth + 1) * ROW;
      var c = colour(t, b.i);
      ctx.fillStyle = c;
      ctx.fillRect(b.x, y, Math.max(b.w - 1, 0.5), ROW - 1);
      if (b.w > 24) {
        ctx.fillStyle = "#000";
        ctx.fillText(fit(t.name(b.i), b.w - 6), b.x + 3, y + ROW / 2);
      }
      if (b.i === state.selected) {
        ctx.strokeStyle = state.theme === "dark" ? "#fff" : "#000";
        ctx.lineWidth = 2;
        ctx.strokeRect(b.x + 1, y + 1, Math.max(b.w - 3, 1), ROW - 3);
      }
      return {i: b.i, x: b.x, y: y, w: b.w, h: ROW, depth: b.depth, colour: c};
    });
    if (firstDraw === null) firstDraw = performance.now();
    describe();
  }

  function fit(text, px) {
    if (ctx.measureText(text).width <= px) return text;
    var lo = 0, hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + "\u2026").width <= px) lo = mid;
      else hi = mid - 1;
    }
    return lo ? text.slice(0, lo) + "\u2026" : "";
  }

  /* ---- what surrounds the graph ------------------------------------ */

  function text(el, s) { el.textContent = s; }

  function describe() {
    var t = tree(), m = state.metric, def = metrics[m];
    var about = "Profile " + data.profile.path + ": " + data.profile.runs + " run" +
      (data.profile.runs === 1 ? "" : "s") + ", " + data.profile.contexts + " contexts";
    if (data.base)
      about += "; base " + data.base.path + ": " + data.base.runs + " run" +
        (data.base.runs === 1 ? "" : "s") + ", " + data.base.contexts + " contexts";
    about += ". Frames keyed by " + (data.key === "fine" ? "function, file and line" : "function and file") + ".";
    text($("about"), about);
    var root = t.value(0, m);
    var scale = (state.elided ? "Vanished stacks of the base, " : "Total ") + def.label + ": " + amount(root, m) + ".";
    if (def.mean)
      scale += " Widths: the " + def.label.replace("mean ", "") + "s of the allocations summed; values: their mean.";
    if (data.base && !state.elided)
      scale += def.mean ? " Means are compared unscaled." :
        " Base values scaled \u00d7" + def.factor.toPrecision(4) + " (--normalize " + data.normalize + ").";
    text($("scale"), scale);
    legend();
    breadcrumb();
    var s = $("matched");
    if (state.search) {
      var r = matchedShare(t, m);
      text(s, "Matched: " + percent(r.share) + " of " + def.label + " (" + r.frames + " frames)");
    } else {
      text(s, "");
    }
  }

  function legend() {
    var el = $("legend");
    el.textContent = "";
    if (!differential()) return;
    var c = changes();
    [["hsl(0,80%,58%)", "worse: " + c.worse], ["hsl(215,80%,58%)", "better: " + c.better],
     ["hsl(0,0%,82%)", "within \u00b1" + Math.round(state.band * 100) + " %"],
     ["hsl(280,60%,58%)", "new: " + c.added]].forEach(function (p) {
      var sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = p[0];
      el.appendChild(sw);
      el.appendChild(document.createTextNode(p[1]));
    });
    el.appendChild(document.createTextNode(" (colour: change of each frame's " +
      (views[state.view].tree.byTotal ? "value (what the allocating function at the root allocates through it)"
        : "self value") + " against the base, in steps of 25, 50 and 100 %)"));
  }

  function changes() {
    var t = views[state.view].tree, c = {worse: 0, better: 0, added: 0, same: 0};
    for (var i = 1; i < t.n; i++) c[t.compare(i, state.metric, state.band).kind]++;
    return c;
  }

  function breadcrumb() {
    var nav = $("breadcrumb"), t = tree();
    nav.textContent = "";
    path(t, state.zoom).forEach(function (i, k) {
      if (k) {
        var sep = document.createElement("span");
        sep.className = "sep";
        sep.textContent = " \u203a ";
        nav.appendChild(sep);
      }
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = t.name(i);
      b.addEventListener("click", function () { zoom(i); });
      nav.appendChild(b);
    });
  }

  function tooltipHtml(t, i) {
    var m = state.metric, rows = [];
    function row(k, v) { rows.push([k, v]); }
    var file = t.file(i);
    if (file)
      row("where", file + (t.line[i] ? ":" + t.line[i] : "") +
        (t.flags[i] & FLAG_LINES ? " (and other lines)" : ""));
    row(metrics[m].label, amount(t.value(i, m), m));
    row("share", percent(share(t, i, m)) + " of the whole");
    row("self", amount(t.selfValue(i, m), m));
    if (differential()) {
      var d = t.compare(i, m, state.band);
      if (d.kind === "added") {
        row("base", "no such frame: new");
      } else {
        var what = t.byTotal ? "" : " self";
        row("base" + what, amount(d.base, m) + (metrics[m].mean ? "" : " (scaled)"));
        row("new" + what, amount(d.cur, m));
        row("change", (d.change > 0 ? "+" : "") + amount(d.change, m) + ", " +
          (d.fromZero ? "from nothing" : (d.relative > 0 ? "+" : "") + percent(d.relative)));
      }
    }
    var div = document.createElement("div");
    var b = document.createElement("b");
    b.textContent = t.name(i);
    div.appendChild(b);
    var table = document.createElement("table");
    rows.forEach(function (r) {
      var tr = table.insertRow();
      tr.insertCell().textContent = r[0];
      tr.insertCell().textContent = r[1];
    });
    div.appendChild(table);
    return div;
  }

  function showTooltip(box, x, y) {
    var tip = $("tooltip");
    if (!box) { tip.hidden = true; return; }
    tip.textContent = "";
    tip.appendChild(tooltipHtml(tree(), box.i));
    tip.hidden = false;
    var main = $("main").clientWidth;
    tip.style.left = Math.max(0, Math.min(x + 12, main - tip.offsetWidth)) + "px";
    tip.style.top = (y + 14) + "px";
  }

  /* ---- actions ----------------------------------------------------- */

  function zoom(i) {
    state.zoom = i;
    state.selected = i;
    draw();
  }
  function boxAt(x, y) {
    for (var k = boxes.length - 1; k >= 0; k--) {
      var b = boxes[k];
      if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h) return b;
    }
    return null;
  }
  function boxOf(i) {
    for (var k = 0; k < boxes.length; k++) if (boxes[k].i === i) return boxes[k];
    return null;
  }
  function local(e) {
    var r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  canvas.addEventListener("click", function (e) {
    var p = local(e), b = boxAt(p[0], p[1]);
    if (b) zoom(b.i);
  });
  canvas.addEventListener("mousemove", function (e) {
    var p = local(e);
    showTooltip(boxAt(p[0], p[1]), p[0], p[1]);
  });
  canvas.addEventListener("mouseleave", function () { showTooltip(null); });

  /* Keyboard: the arrows walk the drawn frames (up is towards the top of
   * the page), Enter zooms, Escape resets, / searches. */
  function moveSelection(key) {
    var t = tree(), s = state.selected >= 0 && boxOf(state.selected) ? state.selected : state.zoom;
    var icicle = state.view === "icicle";
    var toChild = key === (icicle ? "ArrowDown" : "ArrowUp");
    var toParent = key === (icicle ? "ArrowUp" : "ArrowDown");
    var next = s;
    if (toParent && s > 0) next = t.parent[s];
    if (toChild) {
      var kids = t.children[s].filter(function (c) { return boxOf(c); });
      if (kids.length) next = kids.reduce(function (a, c) {
        return t.width[state.metric][c] > t.width[state.metric][a] ? c : a; });
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      var sibs = s > 0 ? t.children[t.parent[s]].filter(function (c) { return boxOf(c); }) : [];
      var k = sibs.indexOf(s) + (key === "ArrowLeft" ? -1 : 1);
      if (k >= 0 && k < sibs.length) next = sibs[k];
    }
    state.selected = next;
    draw();
    var b = boxOf(next);
    if (b) showTooltip(b, b.x + b.w / 2, b.y);
  }
  canvas.addEventListener("keydown", function (e) {
    if (/^Arrow/.test(e.key)) { moveSelection(e.key); e.preventDefault(); }
    else if (e.key === "Enter" || e.key === " ") {
      if (state.selected >= 0) zoom(state.selected);
      e.preventDefault();
    } else if (e.key === "Escape") { zoom(0); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== $("search")) {
      $("search").focus();
      e.preventDefault();
    }
  });

  function setSearch(source) {
    var input = $("search");
    state.search = null;
    input.removeAttribute("aria-invalid");
    if (source) {
      try { state.search = new RegExp(source); }
      catch (err) { input.setAttribute("aria-invalid", "true"); }
    }
    draw();
  }

  function setView(v) {
    state.view = v;
    state.zoom = 0;
    state.selected = -1;
    var has = !!views[v].elided;
    $("elided-control").hidden = !has;
    if (!has) { state.elided = false; $("elided").checked = false; }
    draw();
  }

  function setTheme(theme) {
    state.theme = theme;
    document.documentElement.setAttribute("data-theme", theme);
    text($("theme"), theme === "dark" ? "Light theme" : "Dark theme");
    draw();
  }

  /* ---- start ------------------------------------------------------- */

  var select = $("metric");
  metrics.forEach(function (m, k) {
    if (!m.measured) return; /* a build that counted no accesses */
    var o = document.createElement("option");
    o.value = m.key;
    o.textContent = m.label;
    if (k === state.metric) o.selected = true;
    select.appendChild(o);
  });
  select.addEventListener("change", function () {
    state.metric = metrics.findIndex(function (m) { return m.key === select.value; });
    draw();
  });
  $("view").addEventListener("change", function () { setView($("view").value); });
  $("search").addEventListener("input", function () { setSearch($("search").value); });
  $("reset").addEventListener("click", function () { zoom(0); });
  $("theme").addEventListener("click", function () {
    setTheme(state.theme === "dark" ? "light" : "dark");
  });
  $("elided").addEventListener("change", function () {
    state.elided = $("elided").checked;
    state.zoom = 0;
    state.selected = -1;
    draw();
  });
  if (data.base) {
    $("band-control").hidden = false;
    $("band").value = Math.round(state.band * 1000) / 10;
    $("band").addEventListener("input", function () {
      var v = parseFloat($("band").value);
      if (isFinite(v) && v >= 0) { state.band = v / 100; draw(); }
    });
  }
  window.addEventListener("resize", draw);
  document.documentElement.setAttribute("data-theme", state.theme);
  text($("theme"), state.theme === "dark" ? "Light theme" : "Dark theme");
  setView("flame");

  /* What the page shows, for scripts (test/e2e/flamegraph.sh drives the
   * page in a browser and checks it through this). */
  window.mipFlame = {
    data: data,
    state: state,
    firstDraw: function () { return firstDraw; },
    boxes: function () {
      var t = tree();
      return boxes.map(function (b) {
        return {i: b.i, name: t.name(b.i), x: b.x, y: b.y, w: b.w, h: b.h,
                colour: b.colour, kind: kindOf(t, b.i)};
      });
    },
    rootValue: function (key) {
      var m = metrics.findIndex(function (d) { return d.key === key; });
      return tree().value(0, m);
    },
    changes: changes
  };
})();
