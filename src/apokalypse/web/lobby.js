// The lobby: a form that creates a game (POST /api/games) and shows its invite links.

const MAX_PLAYERS = { apokalypse: 6, apokerlypse: 4 };
const KINDS = [
  ["human", "human"],
  ["heuristic", "computer (heuristic)"],
  ["random", "computer (random)"],
];

const form = document.getElementById("create");
const gameSelect = document.getElementById("game");
const playersSelect = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const errorBox = document.getElementById("error");

function fillPlayers() {
  const max = MAX_PLAYERS[gameSelect.value];
  const current = Number(playersSelect.value) || 2;
  playersSelect.replaceChildren();
  for (let n = 2; n <= max; n += 1) {
    playersSelect.append(new Option(String(n), String(n), false, n === Math.min(current, max)));
  }
  fillSeats();
}

function fillSeats() {
  const n = Number(playersSelect.value);
  const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  seatsBox.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat + 1} `;
    const select = document.createElement("select");
    select.name = `seat${seat}`;
    select.dataset.seat = String(seat);
    const chosen = old[seat] ?? (seat === 0 ? "human" : "heuristic");
    for (const [value, text] of KINDS) {
      select.append(new Option(text, value, false, value === chosen));
    }
    label.append(select);
    seatsBox.append(label);
  }
}

function link(path) {
  return new URL(path, window.location.origin).href;
}

function showCreated(created) {
  document.getElementById("game-id").textContent = created.id;
  const list = document.getElementById("links");
  list.replaceChildren();
  let first = null;
  for (const seat of created.seats) {
    const item = document.createElement("li");
    if (seat.token) {
      const href = link(`/games/${created.id}?token=${encodeURIComponent(seat.token)}`);
      first ??= href;
      const a = document.createElement("a");
      a.href = href;
      a.className = "seat-link";
      a.dataset.seat = String(seat.seat);
      a.textContent = href;
      item.append(`Seat ${seat.seat + 1} (human): `, a);
    } else {
      item.append(`Seat ${seat.seat + 1}: computer (${seat.kind})`);
    }
    list.append(item);
  }
  const spectate = document.createElement("li");
  const a = document.createElement("a");
  a.href = link(`/games/${created.id}`);
  a.id = "spectator-link";
  a.textContent = a.href;
  spectate.append("Spectators: ", a);
  list.append(spectate);
  const open = document.getElementById("open-seat");
  open.hidden = first === null;
  open.onclick = () => {
    if (first !== null) window.location.href = first;
  };
  document.getElementById("created").hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const body = {
    game: gameSelect.value,
    players: Number(playersSelect.value),
    seats,
    lang: document.getElementById("lang").value,
  };
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail ?? response.statusText);
    showCreated(data);
  } catch (err) {
    errorBox.textContent = String(err.message ?? err);
    errorBox.hidden = false;
  }
});

gameSelect.addEventListener("change", fillPlayers);
playersSelect.addEventListener("change", fillSeats);
fillPlayers();
