// The tables this browser holds a seat at. Each seat's token is kept in localStorage under its
// table's id (as it always was); beside the tokens, "chaikhana.tables" lists the tables themselves,
// newest first: [{id, game, at}], `at` being when this browser last opened the table. The list never
// holds a token, and no token ever goes into an address: the home page sends them in a request's body.

const KEY = "chaikhana.tables";
/** A table id as the server makes them: 128 bits in 22 URL-safe characters. */
const TABLE_ID = /^[A-Za-z0-9_-]{22}$/;

/** A table in this browser's list. @typedef {{ id: string, game: string | null, at: number }} Listed */

/** @returns {Listed[]} */
function read() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((t) => t && TABLE_ID.test(t.id)) : [];
  } catch (_) {
    return [];
  }
}

/** @param {Listed[]} list */
function write(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch (_) {
    // Storage full or refused: the tokens themselves are kept apart, and the list can wait.
  }
}

/** The seat token kept for `id`, or null.
 * @param {string} id */
export function tokenOf(id) {
  return localStorage.getItem(id);
}

/** Keeps the seat's token for `id`, and the table in the list.
 * @param {string} id
 * @param {string} token
 * @param {string | null} [game] */
export function keepSeat(id, token, game = null) {
  localStorage.setItem(id, token);
  remember(id, game);
}

/** Puts the table at the head of the list (or moves it there), with its game once it is known.
 * @param {string} id
 * @param {string | null} [game] */
export function remember(id, game = null) {
  if (!TABLE_ID.test(id)) return;
  const list = read();
  const was = list.find((t) => t.id === id);
  const entry = { id, game: game || was?.game || null, at: Date.now() };
  write([entry, ...list.filter((t) => t.id !== id)]);
}

/** The game of a table in the list, if it is known.
 * @param {string} id */
export function gameOf(id) {
  return read().find((t) => t.id === id)?.game || null;
}

/** Forgets the table: its entry and its seat token.
 * @param {string} id */
export function forget(id) {
  write(read().filter((t) => t.id !== id));
  localStorage.removeItem(id);
}

/**
 * The tables this browser holds a token for, newest first: the list, then any token kept under a
 * table id by an older page that kept no list (those go at the end, oldest known). Entries whose
 * token is gone are left out (and dropped from the list).
 */
export function keptTables() {
  const list = read();
  const held = list.filter((t) => tokenOf(t.id));
  if (held.length !== list.length) write(held);
  const known = new Set(held.map((t) => t.id));
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && TABLE_ID.test(key) && !known.has(key)) {
      held.push({ id: key, game: null, at: 0 });
      known.add(key);
    }
  }
  return held.sort((a, b) => (b.at || 0) - (a.at || 0));
}
