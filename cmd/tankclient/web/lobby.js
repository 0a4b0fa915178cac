// The page's lobby: shown when the URL names no player (no name=). It lists the rooms of the
// server that served the page (GET /rooms, refreshed every few seconds), takes a name, and
// joins a room, or opens a new one, by reloading the page with name= and room=, which skips
// the lobby. Any other parameters of the URL (net=, bot=, ...) are kept.
"use strict";
(() => {
  const lobby = document.getElementById("lobby");
  const list = document.getElementById("rooms");
  const nameField = document.getElementById("lobby-name");
  const roomField = document.getElementById("lobby-room");
  const note = document.getElementById("lobby-note");
  let capacity = 0;

  const join = (room) => {
    const name = nameField.value.trim() || "player";
    try { localStorage.setItem("tanknet-name", name); } catch (e) { /* private mode: no memory */ }
    const q = new URLSearchParams(location.search);
    q.set("name", name);
    if (room) q.set("room", room); else q.delete("room");
    location.search = q.toString();
  };

  const show = (a) => {
    capacity = a.room_capacity;
    document.getElementById("lobby-server").textContent = a.name + (a.draining ? " (shutting down: it takes no new players)" : "");
    list.replaceChildren();
    const rooms = a.rooms.length ? a.rooms : [{ name: "default", players: 0 }];
    for (const r of rooms) {
      const b = document.createElement("button");
      b.className = "room";
      b.dataset.room = r.name;
      b.textContent = r.name + " · " + r.players + "/" + capacity + " players";
      b.disabled = a.draining || r.players >= capacity;
      b.onclick = () => join(r.name === "default" ? "" : r.name);
      const li = document.createElement("li");
      li.append(b);
      list.append(li);
    }
    document.getElementById("lobby-new").disabled = a.draining;
    note.textContent = "";
  };

  const refresh = () => fetch("/rooms", { cache: "no-store" })
    .then((resp) => {
      if (resp.status === 429) return null; // asked too often: keep the list shown
      if (!resp.ok) throw new Error("HTTP " + resp.status);
      return resp.json().then(show);
    })
    .catch((e) => {
      note.textContent = "This page's server does not list its rooms (" + e.message + "): it must be tankserver -web " +
        "(make web-demo starts one). You can still join a room by name.";
    });

  window.tanknetLobby = () => {
    lobby.hidden = false;
    try { nameField.value = localStorage.getItem("tanknet-name") || ""; } catch (e) { /* no storage */ }
    document.getElementById("lobby-new").onclick = () => join(roomField.value.trim());
    roomField.onkeydown = (e) => { if (e.key === "Enter") join(roomField.value.trim()); };
    refresh();
    setInterval(refresh, 3000);
  };
})();
