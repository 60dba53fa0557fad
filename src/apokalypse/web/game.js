// The game page: one WebSocket to the server, every state message drawn as it comes.
// It shows what the server sends and sends back action texts from the server's `legal` list;
// the rules live on the server. The seat's token stays in this page's address only.

const WORDS = {
  en: {
    you: "you",
    spectator: "Spectator: the public view",
    seat: "Seat",
    connecting: "connecting…",
    connected: "connected",
    closed: "disconnected",
    reconnecting: "reconnecting…",
    decision: "Your decision",
    events: "Events",
    round: "Round",
    horseman: "Horseman",
    move: "Move",
    toAct: "To decide",
    nobody: "nobody (waiting)",
    over: "Game over",
    decks: "Decks",
    size: "cards",
    above: "above the horseman",
    discards: "discards",
    seals: "Seals left",
    player: "Player",
    hand: "Hand",
    scores: "Scores",
    horsemen: "Horsemen",
    passed: "passed",
    startup: "starts",
    yourHand: "Your hand",
    empty: "(empty)",
    ethos: "Your ethos",
    known: "You know that {who} holds",
    good: "Good",
    evil: "Evil",
    heaven: "Heaven",
    earth: "Earth",
    nether: "Netherworld",
    attack: "Attack on the table",
    refused: "Refused",
    winners: "Winners",
    totals: "Totals",
    chips: "Chips",
    pot: "Pot",
    bank: "Bank",
    cost: "Cost",
    dealer: "Dealer",
    step: "Step",
    inRound: "in round",
    faction: "Faction",
    drawPile: "Draw pile",
    choice: "Chosen",
    noGame: "There is no such game.",
    badToken: "This link opens no seat of this game.",
  },
  de: {
    you: "du",
    spectator: "Zuschauer: die öffentliche Sicht",
    seat: "Platz",
    connecting: "verbinde…",
    connected: "verbunden",
    closed: "getrennt",
    reconnecting: "verbinde neu…",
    decision: "Deine Entscheidung",
    events: "Ereignisse",
    round: "Runde",
    horseman: "Reiter",
    move: "Zug",
    toAct: "Am Zug",
    nobody: "niemand (warten)",
    over: "Spielende",
    decks: "Stapel",
    size: "Karten",
    above: "über dem Reiter",
    discards: "Ablage",
    seals: "Siegel übrig",
    player: "Spieler",
    hand: "Hand",
    scores: "Wertungen",
    horsemen: "Reiter",
    passed: "gepasst",
    startup: "beginnt",
    yourHand: "Deine Hand",
    empty: "(leer)",
    ethos: "Dein Ethos",
    known: "Du weißt, dass {who} hält",
    good: "Gut",
    evil: "Böse",
    heaven: "Himmel",
    earth: "Erde",
    nether: "Unterwelt",
    attack: "Angriff auf dem Tisch",
    refused: "Abgelehnt",
    winners: "Gewinner",
    totals: "Summen",
    chips: "Chips",
    pot: "Pott",
    bank: "Bank",
    cost: "Kosten",
    dealer: "Geber",
    step: "Schritt",
    inRound: "in der Runde",
    faction: "Fraktion",
    drawPile: "Nachziehstapel",
    choice: "Gewählt",
    noGame: "Dieses Spiel gibt es nicht.",
    badToken: "Dieser Link öffnet keinen Platz dieses Spiels.",
  },
};

const PLANES = ["heaven", "earth", "nether"];
const LOG_LIMIT = 300;

const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const token = new URLSearchParams(window.location.search).get("token");

let lang = "en";
let kinds = [];
let current = null; // the last state message
let cards = {}; // card facts by code (name, the half each side shows, what it does), sent once
let socket = null;
let retries = 0;

function w(key) {
  return (WORDS[lang] ?? WORDS.en)[key] ?? WORDS.en[key] ?? key;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function name(seat) {
  if (seat === null || seat === undefined) return "–";
  const me = current?.observation?.seat;
  const kind = kinds[seat];
  const extra = seat === me ? ` (${w("you")})` : kind && kind !== "human" ? ` (${kind})` : "";
  return `p${seat + 1}${extra}`;
}

function setConnection(key) {
  document.getElementById("connection").textContent = w(key);
  document.getElementById("connection").dataset.state = key;
}

// ---- drawing: common parts ----

function drawActions(state) {
  const box = document.getElementById("actions-box");
  const list = document.getElementById("actions");
  list.replaceChildren();
  const legal = state.legal ?? [];
  const labels = state.text?.choices ?? [];
  box.hidden = token === null || legal.length === 0;
  // The question and each choice's wording come from the server, the terminal's own sentences;
  // the notation stays visible beside them (it is what the server is sent).
  document.getElementById("actions-title").textContent = state.text?.question || w("decision");
  legal.forEach((action, i) => {
    const button = el("button", { type: "button", class: "action" },
      el("span", { class: "label", text: labels[i] ?? action }),
      el("code", { class: "notation", text: action }));
    button.dataset.action = action;
    button.addEventListener("click", () => send(action, state.observation.move));
    list.append(button);
  });
}

const SEAT_ARGS = new Set(["actor", "seat", "target", "attacker", "player", "dealer", "to", "victim"]);

function argText(key, value) {
  if (SEAT_ARGS.has(key) && Number.isInteger(value)) return `p${value + 1}`;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function describe(event) {
  const args = Object.entries(event.args ?? {})
    .map(([k, v]) => `${k}=${argText(k, v)}`)
    .join(" ");
  return `${event.kind}${args ? " " + args : ""}`;
}

function drawLog(state) {
  // The server's sentences for the new events, as this seat may know them; the bare event
  // (kind and arguments) where a message carries none.
  const log = document.getElementById("log");
  const lines = state.text?.log ?? (state.events ?? []).map(describe);
  for (const line of lines) log.append(el("li", { text: line }));
  while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function table(headers, rows, className) {
  const head = el("tr", {}, ...headers.map((h) => el("th", { text: h })));
  const body = rows.map((row) => el("tr", {}, ...row.map((c) => el("td", { text: String(c) }))));
  return el("table", { class: className }, el("thead", {}, head), el("tbody", {}, ...body));
}

function drawResult(result, totalsKey) {
  if (!result) return null;
  const winners = (result.winners ?? []).map(name).join(", ") || "–";
  const parts = [el("strong", { text: `${w("over")}. ${w("winners")}: ${winners}` })];
  const totals = result[totalsKey];
  if (Array.isArray(totals)) {
    parts.push(el("span", { text: ` · ${w(totalsKey)}: ${totals.map((t, q) => `${name(q)} ${t}`).join(", ")}` }));
  }
  return el("p", { class: "result" }, ...parts);
}

// The viewer's hand (a seat's own observation only): its heading and cards, or null.
function drawHand(obs) {
  const mine = document.getElementById("mine");
  if (obs.seat === null || obs.hand === undefined) {
    mine.hidden = true;
    mine.replaceChildren();
    return null;
  }
  mine.hidden = false;
  const hand = el("ul", { id: "hand", class: "hand" });
  for (const code of obs.hand) {
    const card = el("li", { class: "card", text: cards[code]?.name ?? code });
    card.title = [code, cards[code]?.about].filter(Boolean).join(" · ");
    card.dataset.code = code;
    hand.append(card);
  }
  if (obs.hand.length === 0) hand.append(el("li", { class: "empty", text: w("empty") }));
  return [el("h2", { text: w("yourHand") }), hand];
}

// ---- Apokalypse ----

function cardCell(obs, seat, side, plane, pos) {
  const code = obs.displays[seat][side][plane][pos];
  const front = plane === "earth" ? obs.fronts?.[`p${seat + 1}.${side}.${pos}`] : undefined;
  // the half this side shows ("Helm+Pig"); a face-down populace's front in brackets for its owner
  const shown = (c) => cards[c]?.[side] ?? cards[c]?.name ?? c;
  const cell = el("td", { class: `card ${side}`, text: front ? `(${shown(front)})` : shown(code) });
  cell.title = [`p${seat + 1}.${side}.${plane}.${pos}`, code, cards[code]?.name]
    .filter(Boolean)
    .join(" · ");
  return cell;
}

function displayTable(obs, seat) {
  const display = obs.displays[seat];
  const width = {};
  for (const side of ["good", "evil"]) {
    width[side] = Math.max(1, ...PLANES.map((p) => display[side][p].length));
  }
  const head = el("tr");
  head.append(el("th", { class: "side-label good", colSpan: width.good, text: `◀ ${w("good")}` }));
  head.append(el("th", { class: "owner", text: name(seat) + (obs.to_act === seat ? " ◆" : "") }));
  head.append(el("th", { class: "side-label evil", colSpan: width.evil, text: `${w("evil")} ▶` }));
  const positions = el("tr", { class: "positions" });
  for (let pos = width.good - 1; pos >= 0; pos -= 1) positions.append(el("th", { class: "good", text: String(pos) }));
  positions.append(el("th"));
  for (let pos = 0; pos < width.evil; pos += 1) positions.append(el("th", { class: "evil", text: String(pos) }));
  const rows = PLANES.map((plane) => {
    const row = el("tr", { class: `row ${plane}`, "data-plane": plane });
    for (let pos = width.good - 1; pos >= 0; pos -= 1) {
      row.append(pos < display.good[plane].length ? cardCell(obs, seat, "good", plane, pos) : el("td", { class: "card empty" }));
    }
    row.append(el("th", { class: `plane ${plane}`, text: w(plane) }));
    for (let pos = 0; pos < width.evil; pos += 1) {
      row.append(pos < display.evil[plane].length ? cardCell(obs, seat, "evil", plane, pos) : el("td", { class: "card empty" }));
    }
    return row;
  });
  const box = el("div", { class: "display", "data-seat": String(seat) });
  if (obs.to_act === seat) box.classList.add("acting");
  box.append(el("table", {}, el("thead", {}, head, positions), el("tbody", {}, ...rows)));
  return box;
}

function present(...nodes) {
  return nodes.filter((node) => node !== null && node !== undefined);
}

function drawApokalypse(state) {
  const obs = state.observation;
  const info = document.getElementById("info");
  const [bDeck, kDeck] = obs.decks;
  const toAct = obs.to_act === null ? w("nobody") : name(obs.to_act);
  info.replaceChildren(
    ...present(
    el(
      "p",
      { class: "status" },
      el("span", { text: `${w("round")} ${obs.round}` }),
      el("span", { text: `${w("horseman")} ${obs.horseman}` }),
      el("span", { id: "move", "data-move": String(obs.move), text: `${w("move")} ${obs.move}` }),
      el("span", { id: "to-act", text: `${w("toAct")}: ${obs.result ? "–" : toAct} · ${obs.decision}` }),
    ),
    el(
      "p",
      { class: "decks" },
      el("span", { text: `${w("decks")}: B ${bDeck.size} ${w("size")} (${bDeck.above_horseman} ${w("above")}), K ${kDeck.size} ${w("size")} (${kDeck.above_horseman} ${w("above")})` }),
      el("span", { text: `${w("discards")}: B ${obs.discards[0].length} · K ${obs.discards[1].length}` }),
      el("span", { text: `${w("seals")}: ${obs.seal_supply}` }),
    ),
    obs.attack ? el("p", { class: "attack", text: `${w("attack")}: ${obs.attack.card} → p${obs.attack.seat + 1}.${obs.attack.side} (${name(obs.attack.attacker)})` }) : null,
    drawResult(obs.result, "totals"),
    ),
  );

  const rows = [];
  for (let q = 0; q < obs.players; q += 1) {
    const [b, k] = obs.hand_counts[q];
    const scores = obs.scores.map((row) => (row[q] >= 0 ? `+${row[q]}` : String(row[q])));
    const marks = [];
    if (obs.startup === q) marks.push(w("startup"));
    if (obs.passed[q]) marks.push(w("passed"));
    if (obs.to_act === q) marks.push("◆");
    rows.push([name(q), `${b} B · ${k} K`, scores.join(" ") || "–", obs.horseman_cards[q].join(" ") || "–", marks.join(", ")]);
  }
  document.getElementById("players").replaceChildren(
    table([w("player"), w("hand"), w("scores"), w("horsemen"), ""], rows, "counts"),
  );

  document.getElementById("displays").replaceChildren(
    ...Array.from({ length: obs.players }, (_, q) => displayTable(obs, q)),
  );

  const parts = drawHand(obs);
  if (parts !== null) {
    if (obs.ethos) {
      parts.push(el("p", { id: "ethos", class: `ethos ${obs.ethos}`, text: `${w("ethos")}: ${w(obs.ethos)}` }));
    }
    if (obs.choice) parts.push(el("p", { class: "choice", text: `${w("choice")}: ${obs.choice.code}${obs.choice.use ? " " + obs.choice.use : ""}` }));
    for (const [holder, codes] of Object.entries(obs.known ?? {})) {
      parts.push(el("p", { class: "known", text: `${w("known").replace("{who}", holder)}: ${codes.join(", ")}` }));
    }
    document.getElementById("mine").replaceChildren(...parts);
  }
}

// ---- Apokerlypse (generic) ----

function drawApokerlypse(state) {
  const obs = state.observation;
  const toAct = obs.to_act === null ? w("nobody") : name(obs.to_act);
  document.getElementById("info").replaceChildren(
    ...present(
    el(
      "p",
      { class: "status" },
      el("span", { text: `${w("round")} ${obs.round}` }),
      el("span", { text: `${w("cost")} ${obs.cost}` }),
      el("span", { text: `${w("dealer")}: ${name(obs.dealer)}` }),
      el("span", { text: `${w("step")}: ${obs.step}` }),
      el("span", { id: "move", "data-move": String(obs.move), text: `${w("move")} ${obs.move}` }),
      el("span", { id: "to-act", text: `${w("toAct")}: ${obs.result ? "–" : toAct} · ${obs.decision}` }),
    ),
    el(
      "p",
      { class: "decks" },
      el("span", { id: "pot", text: `${w("pot")}: ${obs.pot}` }),
      el("span", { text: `${w("bank")}: ${obs.bank}` }),
      el("span", { text: `${w("drawPile")}: ${obs.draw_pile}` }),
    ),
    drawResult(obs.result, "chips"),
    ),
  );
  const rows = [];
  for (let q = 0; q < obs.players; q += 1) {
    rows.push([
      name(q),
      obs.chips[q],
      obs.hand_sizes[q],
      obs.in_round[q] ? "✓" : "–",
      obs.factions?.[q] ?? "",
      (obs.discards[q] ?? []).join(" ") || "–",
    ]);
  }
  document.getElementById("players").replaceChildren(
    table([w("player"), w("chips"), w("hand"), w("inRound"), w("faction"), w("discards")], rows, "counts"),
  );
  document.getElementById("displays").replaceChildren();
  const parts = drawHand(obs);
  if (parts !== null) document.getElementById("mine").replaceChildren(...parts);
}

// ---- the connection ----

function draw(state) {
  current = state;
  if (state.cards) cards = state.cards;
  document.getElementById("refusal").hidden = true;
  if (state.observation.game === "apokalypse") drawApokalypse(state);
  else drawApokerlypse(state);
  drawActions(state);
  drawLog(state);
  document.body.dataset.move = String(state.observation.move);
  if (state.observation.seat !== null) {
    document.getElementById("whoami").textContent = `${w("seat")} ${state.observation.seat + 1}`;
  }
}

function showRefusal(message) {
  const box = document.getElementById("refusal");
  box.replaceChildren(
    el("strong", { text: `${w("refused")}${message.rule ? ` (${message.rule})` : ""}: ` }),
    el("span", { class: "reason", text: message.reason }),
  );
  box.dataset.rule = message.rule ?? "";
  box.hidden = false;
}

function showFatal(text) {
  const box = document.getElementById("refusal");
  box.replaceChildren(el("strong", { text }));
  box.hidden = false;
}

function send(action, move) {
  if (socket === null || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify({ action, move }));
  return true;
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const query = token === null ? "" : `?token=${encodeURIComponent(token)}`;
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/games/${encodeURIComponent(gameId)}${query}`);
  setConnection("connecting");
  socket.addEventListener("open", () => {
    retries = 0;
    setConnection("connected");
  });
  socket.addEventListener("message", (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    if (data.type === "state") draw(data);
    else if (data.type === "refused") showRefusal(data);
  });
  socket.addEventListener("close", (event) => {
    socket = null;
    if (event.code === 4404) return showFatal(w("noGame"));
    if (event.code === 4403) return showFatal(w("badToken"));
    if (retries >= 5) return setConnection("closed");
    retries += 1;
    setConnection("reconnecting");
    document.getElementById("log").replaceChildren(); // a new connection resends every event
    window.setTimeout(connect, 500 * retries);
  });
}

async function start() {
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
    if (response.ok) {
      const summary = await response.json();
      lang = summary.lang in WORDS ? summary.lang : "en";
      kinds = summary.seats.map((s) => s.kind);
      document.title = `${summary.game === "apokerlypse" ? "Apokerlypse" : "Apokalypse"} ${gameId}`;
    }
  } catch {
    // the WebSocket will tell what is wrong
  }
  document.documentElement.lang = lang;
  document.getElementById("actions-title").textContent = w("decision");
  document.getElementById("log-title").textContent = w("events");
  document.getElementById("whoami").textContent = token === null ? w("spectator") : "";
  connect();
}

// For tests and the curious: send an action text with a move number (the server judges it).
window.apokalypse = { send, state: () => current };

start();
