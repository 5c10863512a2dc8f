// boardai web page: plain JS, no build step. Each panel talks to the server over its own
// WebSocket (one game per socket). Each request carries an id that its reply echoes; the
// page sends one request at a time, as the server runs one search at a time per game.
"use strict";

const $ = (id) => document.getElementById(id);
const ACTIONS = ["up", "right", "down", "left"];
const ARROWS = ["\u2191", "\u2192", "\u2193", "\u2190"];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Channel {
  constructor() {
    this.waiting = new Map();
    this.next = 0;
    this.queue = Promise.resolve();
    this.ready = new Promise((resolve) => {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      this.ws = new WebSocket(`${proto}://${location.host}/ws`);
      this.ws.onopen = resolve;
      this.ws.onerror = resolve;  // a failed connection: requests then answer with an error
      this.ws.onmessage = (ev) => {
        const reply = JSON.parse(ev.data);
        const done = this.waiting.get(reply.id);
        if (done) {
          this.waiting.delete(reply.id);
          done(reply);
        }
      };
      this.ws.onclose = (ev) => {
        const why = ev.reason ? `connection closed: ${ev.reason}` : "connection closed";
        for (const done of this.waiting.values()) done({ type: "error", message: why });
        this.waiting.clear();
      };
    });
  }
  request(msg) {
    const turn = this.queue.then(() => this.ask(msg));
    this.queue = turn.catch(() => {});
    return turn;
  }
  async ask(msg) {
    await this.ready;
    if (this.ws.readyState !== WebSocket.OPEN) {
      return { type: "error", message: "connection to the server lost: reload the page" };
    }
    return new Promise((resolve) => {
      const id = ++this.next;
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}

// The records kept in a `boardai 2048 eval --json` or `compare --json` file (null: the text
// is neither).
function evalRecords(text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { return null; }
  if (!data || typeof data !== "object" || "game" in data) return null;
  // a compare --json file: its players' runs one after another
  const runs = Array.isArray(data.runs) ? data.runs.filter((r) => r && Array.isArray(r.results)) : [];
  const games = runs.length ? runs.flatMap((r) => r.results) : data.results;
  if (!Array.isArray(games)) return null;
  return games.filter((g) => g && g.record).map((g) => g.record);
}

// A file that is one record as an indented JSON document (as `othello play --record` once
// wrote them), else null.
function wholeRecord(text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { return null; }
  return data && typeof data === "object" && !Array.isArray(data) && "game" in data ? [data] : null;
}

// The records of the finished games in a `--resume` journal, run by run in game order (null:
// the text is not one); a line that is not JSON (a torn last line) is left out.
function journalRecords(text) {
  const lines = text.split("\n").filter((l) => l.trim());
  let head;
  try { head = JSON.parse(lines[0]); } catch (e) { return null; }
  if (!head || typeof head !== "object" || !("journal" in head)) return null;
  const runs = new Map();
  for (const line of lines.slice(1)) {
    let entry;
    try { entry = JSON.parse(line); } catch (e) { continue; }
    const record = entry && entry.result && entry.result.record;
    if (!record) continue;
    if (!runs.has(entry.run)) runs.set(entry.run, []);
    runs.get(entry.run).push([entry.index || 0, record]);
  }
  const out = [];
  for (const games of runs.values()) {
    games.sort((a, b) => a[0] - b[0]).forEach(([, record]) => out.push(record));
  }
  return out;
}

function download(name, record) {
  const blob = new Blob([JSON.stringify(record) + "\n"], { type: "application/x-ndjson" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

function fillPlayers(select, input, players, options, preferred) {
  select.innerHTML = "";
  for (const [name, about] of Object.entries(players)) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    o.title = about;
    select.appendChild(o);
  }
  const choose = (name) => {
    input.value = name;
    const opts = options[name] ? `options: ${options[name]}` : "no options";
    input.title = `${players[name] || ""}\n${opts}\n(edit as name:key=value,...)`;
  };
  const pick = preferred.find((p) => p in players) || Object.keys(players)[0] || "";
  select.value = pick;
  choose(pick);
  select.onchange = () => choose(select.value);
}

// ---- 2048 board ------------------------------------------------------------------------

class Board2048 {
  constructor(el) {
    this.el = el;
    this.tiles = new Map();
    for (let i = 0; i < 16; i++) {
      const c = document.createElement("div");
      c.className = "cell";
      this.place(c, i);
      el.appendChild(c);
    }
  }
  place(node, cell) {
    node.style.setProperty("--r", Math.floor(cell / 4));
    node.style.setProperty("--c", cell % 4);
    node.dataset.cell = cell;
  }
  make(t) {
    const n = document.createElement("div");
    const digits = String(t.value).length;
    n.className = `tile tile-${t.value} digits${digits}`;
    n.textContent = t.value;
    n.dataset.value = t.value;
    this.place(n, t.cell);
    this.el.appendChild(n);
    this.tiles.set(t.id, n);
    return n;
  }
  render(anim) {
    if (anim.reset) {
      for (const n of this.el.querySelectorAll(".tile")) n.remove();  // sliding-out ones too
      this.tiles.clear();
      for (const t of anim.tiles) this.make(t);
      return;
    }
    for (const r of anim.removed) {
      const n = this.tiles.get(r.id);
      if (!n) continue;
      this.tiles.delete(r.id);
      this.place(n, r.cell);
      setTimeout(() => n.remove(), 110);
    }
    for (const t of anim.tiles) {
      const n = this.tiles.get(t.id);
      if (n) this.place(n, t.cell);
      else this.make(t).classList.add(t.kind);
    }
  }
}

// ---- Othello board ---------------------------------------------------------------------

const squareName = (sq) => "abcdefgh"[sq % 8] + (Math.floor(sq / 8) + 1);

class BoardOthello {
  constructor(el, onPlay) {
    this.el = el;
    this.el.classList.add("boardOthello");
    this.squares = [];
    this.el.appendChild(this.label(""));
    for (let c = 0; c < 8; c++) this.el.appendChild(this.label("abcdefgh"[c]));
    for (let r = 0; r < 8; r++) {
      this.el.appendChild(this.label(String(r + 1)));
      for (let c = 0; c < 8; c++) {
        const sq = document.createElement("div");
        const i = 8 * r + c;
        sq.className = "sq";
        sq.dataset.square = squareName(i);
        sq.onclick = () => { if (sq.classList.contains("legal") && onPlay) onPlay(squareName(i)); };
        this.el.appendChild(sq);
        this.squares.push(sq);
      }
    }
  }
  label(text) {
    const l = document.createElement("div");
    l.className = "label";
    l.textContent = text;
    return l;
  }
  render(s, interactive) {
    const legal = new Set(interactive ? s.legal : []);
    const flips = new Set(s.flips || []);
    s.cells.split("").forEach((ch, i) => {
      const sq = this.squares[i];
      sq.className = "sq" + (legal.has(i) ? " legal" : "") + (s.last === i ? " last" : "") +
        (flips.has(i) ? " flipped" : "");
      const colour = ch === "B" ? "black" : ch === "W" ? "white" : "";
      let disc = sq.firstChild;
      if (!colour) { if (disc) disc.remove(); return; }
      if (!disc) { disc = document.createElement("div"); sq.appendChild(disc); }
      disc.className = "disc " + colour;
    });
  }
  mark(square) {
    for (const sq of this.squares) sq.classList.remove("hintmark");
    if (square !== null && square !== undefined && square < 64) this.squares[square].classList.add("hintmark");
  }
}

// ---- autoplay: a player moves again and again ---------------------------------------------

// Its button starts and stops it; step() asks for one move (a state reply, or an error that
// ends it), at most one every interval() milliseconds, until the game is over.
class Autoplay {
  constructor(button, step, interval) {
    this.button = button;
    this.step = step;
    this.interval = interval;
    this.on = false;
    button.onclick = () => (this.on ? this.stop() : this.start());
  }
  async start() {
    this.on = true;
    this.button.textContent = "Stop";
    while (this.on) {
      const t0 = performance.now();
      const r = await this.step();
      if (r.type !== "state" || r.over) break;
      const wait = this.interval() - (performance.now() - t0);
      if (wait > 0) await sleep(wait);
    }
    this.stop();
  }
  stop() {
    this.on = false;
    this.button.textContent = "Autoplay";
  }
}

// ---- 2048 panel ------------------------------------------------------------------------

const g2048 = {
  ch: new Channel(),
  board: null,
  state: null,
  keepPlaying: false,
  autoplay: null,
  busy: false,

  init() {
    this.board = new Board2048($("board2048"));
    $("best").textContent = localStorage.getItem("boardai-best") || 0;
    $("new2048").onclick = () => this.newGame();
    $("again2048").onclick = () => this.newGame();
    $("undo2048").onclick = () => this.send({ type: "undo" });
    $("overundo2048").onclick = () => this.send({ type: "undo" });
    $("keep2048").onclick = () => { this.keepPlaying = true; this.overlay(); };
    $("hint2048").onclick = () => this.hint();
    this.autoplay = new Autoplay($("auto2048"),
      () => this.send({ type: "step", player: $("spec2048").value }),
      () => 1000 / Number($("speed2048").value));
    $("save2048").onclick = async () => {
      const r = await this.ch.request({ type: "record" });
      if (r.type === "record") download("2048-game.jsonl", r.record);
      else this.status(r.message);
    };
    $("speed2048").oninput = () => { $("speedlabel").textContent = $("speed2048").value + "/s"; };
    document.addEventListener("keydown", (e) => this.key(e));
    let start = null;
    const el = $("board2048");
    el.addEventListener("pointerdown", (e) => { start = [e.clientX, e.clientY]; });
    el.addEventListener("pointerup", (e) => {
      if (!start) return;
      const dx = e.clientX - start[0], dy = e.clientY - start[1];
      start = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 30) return;
      this.move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 1 : 3) : (dy > 0 ? 2 : 0));
    });
    this.newGame();
  },
  status(text) { $("status2048").textContent = text; },
  key(e) {
    if (!$("g2048").classList.contains("active") || ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    const keys = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3, w: 0, d: 1, s: 2, a: 3, W: 0, D: 1, S: 2, A: 3 };
    if (e.key in keys) {
      e.preventDefault();
      this.move(keys[e.key]);
    }
  },
  async send(msg) {
    const r = await this.ch.request(msg);
    if (r.type === "state") this.show(r);
    else if (r.type === "error") this.status(r.message);
    return r;
  },
  newGame(extra = {}) {
    this.keepPlaying = false;
    this.stop();
    return this.send({ type: "new", game: "2048", ...extra });
  },
  move(action) {
    if (this.state && !this.state.legal.includes(action)) return;
    return this.send({ type: "move", action });
  },
  show(s) {
    this.state = s;
    this.board.render(s.animation);
    $("score").textContent = s.score;
    const best = Math.max(s.score, Number(localStorage.getItem("boardai-best") || 0));
    localStorage.setItem("boardai-best", best);
    $("best").textContent = best;
    $("undo2048").disabled = !s.can_undo;
    this.status(`moves ${s.moves}, largest tile ${s.max_tile}`);
    this.overlay();
  },
  overlay() {
    const s = this.state, o = $("overlay2048");
    const win = s.won && !this.keepPlaying && !s.over;
    o.classList.toggle("hidden", !(win || s.over));
    o.classList.toggle("win", win);
    $("overlaytext").textContent = s.over ? "Game over!" : "You win!";
    $("keep2048").classList.toggle("hidden", !win);
    $("overundo2048").classList.toggle("hidden", !s.over);
    if (win || s.over) this.stop();
  },
  async hint() {
    const r = await this.ch.request({ type: "hint", player: $("spec2048").value });
    if (r.type !== "hint") return this.status(r.message);
    let text = `${r.player} suggests ${ARROWS[r.action]} ${r.move}`;
    if (r.values) {
      text += " (" + r.values.map((v, a) => `${ACTIONS[a]} ${v === null ? "-" : v.toLocaleString("en", { maximumFractionDigits: 1 })}`).join(", ") + ")";
    }
    this.status(text);
  },
  stop() { this.autoplay.stop(); },
};

// ---- Othello panel ---------------------------------------------------------------------

const othello = {
  ch: new Channel(),
  board: null,
  state: null,
  autoplay: null,
  init() {
    this.board = new BoardOthello($("boardOthello"), (move) => this.send({ type: "move", move }));
    $("newOthello").onclick = () => this.newGame();
    $("undoOthello").onclick = () => this.send({ type: "undo" });
    $("passOthello").onclick = () => this.send({ type: "move", move: "pass" });
    $("hintOthello").onclick = async () => {
      const r = await this.ch.request({ type: "hint", player: $("specOthello").value });
      if (r.type !== "hint") return this.status(r.message);
      this.board.mark(r.action);
      this.status(`${r.player} suggests ${r.move}`);
    };
    $("saveOthello").onclick = async () => {
      const r = await this.ch.request({ type: "record" });
      if (r.type === "record") download("othello-game.jsonl", r.record);
      else this.status(r.message);
    };
    // the player named beside Autoplay (else the one in the box) makes the person's moves
    this.autoplay = new Autoplay($("autoOthello"),
      () => this.send({ type: "step", player: $("autoSpecOthello").value.trim() || $("specOthello").value }),
      () => 500);
  },
  status(text) { $("statusOthello").textContent = text; },
  async send(msg) {
    this.status(["move", "new", "step"].includes(msg.type) ? "thinking..." : "");
    const r = await this.ch.request(msg);
    if (r.type === "state") this.show(r);
    else if (r.type === "error") this.status(r.message);
    return r;
  },
  newGame() {
    this.autoplay.stop();
    return this.send({ type: "new", game: "othello", human: $("human").value, player: $("specOthello").value });
  },
  show(s) {
    this.state = s;
    this.board.render(s, !s.over && s.to_move === s.human);
    $("countBlack").textContent = s.counts.black;
    $("countWhite").textContent = s.counts.white;
    $("passOthello").classList.toggle("hidden", !s.pass_forced);
    $("undoOthello").disabled = !s.can_undo;
    this.status(s.over ? s.result : s.message || `${s.to_move} to move`);
  },
};

// ---- Replay panel ----------------------------------------------------------------------

// What the replay panel does differently for each game, by the game's name that records
// ("game") and replay states ("of") carry.
const REPLAYS = {
  "2048": {
    summary: (r) => `score ${r.score}, ${(r.moves || []).length} moves`,
    view(el) {
      const b = document.createElement("div");
      b.className = "board2048";
      el.appendChild(b);
      return new Board2048(b);
    },
    render: (view, s) => view.render(s.animation),
    line: (s) => `score ${s.score}`,
  },
  othello: {
    summary: (r) => (r.winner ? (r.winner === "draw" ? "draw" : `${r.winner} wins`) : "unfinished")
      + (r.discs ? ` ${r.discs.black}-${r.discs.white}` : ""),
    view: (el) => new BoardOthello(el, null),
    render: (view, s) => view.render(s, false),
    line: (s) => `black ${s.counts.black} white ${s.counts.white}`,
  },
};

const replay = {
  ch: new Channel(),
  records: [],
  state: null,
  view: null,
  game: null,
  playing: false,
  init() {
    $("replayFile").onchange = (e) => this.open(e.target.files[0]);
    $("replayGame").onchange = () => this.load(Number($("replayGame").value));
    $("rFirst").onclick = () => this.seek(0);
    $("rPrev").onclick = () => this.seek(this.index() - 1);
    $("rNext").onclick = () => this.seek(this.index() + 1);
    $("rLast").onclick = () => this.seek(this.state ? this.state.length - 1 : 0);
    $("rSlider").oninput = () => this.seek(Number($("rSlider").value));
    $("rPlay").onclick = () => (this.playing ? this.pause() : this.play());
  },
  index() { return this.state ? this.state.index : 0; },
  status(text) { $("rPos").textContent = text; },
  async open(file) {
    if (!file) return;
    const text = await file.text();
    this.openText(text);
  },
  openText(text) {
    this.records = [];
    const select = $("replayGame");
    select.innerHTML = "";
    const evalRun = evalRecords(text) || journalRecords(text) || wholeRecord(text);
    if (evalRun) this.records = evalRun;
    else for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try { this.records.push(JSON.parse(line)); } catch (e) { return this.status("not a JSON-lines record file"); }
    }
    this.records.forEach((r, i) => {
      const o = document.createElement("option");
      o.value = i;
      const what = REPLAYS[r.game] ? REPLAYS[r.game].summary(r) : "";
      const p = r.players || {};
      const who = p.black && p.white ? `, ${p.black} vs ${p.white}` : r.agent ? `, ${r.agent}` : "";
      o.textContent = `game ${i}: ${r.game} ${what}${who}`;
      select.appendChild(o);
    });
    if (this.records.length) return this.load(0);
    this.status("no games in this file");
  },
  async load(i) {
    this.pause();
    const r = await this.ch.request({ type: "replay", record: this.records[i] });
    if (r.type === "error") return this.status(r.message);
    const el = $("replayBoard");
    el.innerHTML = "";
    el.className = "";
    this.game = REPLAYS[r.of];
    this.view = this.game.view(el);
    $("rSlider").max = r.length - 1;
    this.show(r);
  },
  async seek(i) {
    if (!this.state || i < 0 || i >= this.state.length) return false;
    const r = await this.ch.request({ type: "seek", index: i });
    if (r.type === "state") this.show(r);
    else this.status(r.message);
    return r.type === "state";
  },
  show(s) {
    this.state = s;
    this.game.render(this.view, s);
    $("rSlider").value = s.index;
    const extra = this.game.line(s);
    this.status(`position ${s.index} / ${s.length - 1}` + (s.move ? `, after ${s.move}` : "") + `, ${extra}`);
  },
  async play() {
    this.playing = true;
    $("rPlay").textContent = "Pause";
    while (this.playing && (await this.seek(this.index() + 1))) await sleep(150);
    this.pause();
  },
  pause() {
    this.playing = false;
    $("rPlay").textContent = "Play";
  },
};

// ---- start -----------------------------------------------------------------------------

function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
}

async function start() {
  for (const b of document.querySelectorAll("#tabs button")) b.onclick = () => showTab(b.dataset.tab);
  const r = await g2048.ch.request({ type: "agents" });
  const prefer2048 = ["expectimax", "heuristic", "greedy", "random"];
  fillPlayers($("player2048"), $("spec2048"), r["2048"], r.options["2048"], prefer2048);
  fillPlayers($("playerOthello"), $("specOthello"), r.othello, r.options.othello, ["alphabeta", "wpc", "greedy", "random"]);
  g2048.init();
  othello.init();
  replay.init();
  if (Object.keys(r.othello).length) othello.newGame();
  else othello.status("Othello is not available in this build yet");
  window.boardai = { g2048, othello, replay, showTab };
}

start();
