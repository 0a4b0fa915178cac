// The page's touch controls: a stick at the bottom left (drag: up drives forward, down back,
// left and right turn, as W/S/A/D do, by how far it is pushed) and a fire button at the
// bottom right (Space), both usable at once with two thumbs, and a small HUD button (H: the
// panel of figures on or off, for a small screen). The program starts them when it joins a
// match (tanknetTouch.start, from touch_js.go) with a function to call on every change:
// set(x, y, fire), the thumb's offset from the stick's centre in stick radii (+x right, +y
// down) and whether fire is held; and one to call when HUD is tapped. They show on a touch screen only: at once where the main
// pointer is coarse, elsewhere at the first touch. touch.css lays them out; while they show,
// the page's body has the class "touch".
"use strict";
(() => {
  let set = null; // the program's setter while a match is played
  let toggleHUD = null; // the program's H
  let pad = null; // the controls' elements, made at the first start
  const stick = { id: null, x: 0, y: 0 }; // the pointer holding the stick, and its offset
  let fireId = null; // the pointer holding the fire button

  const send = () => { if (set) set(stick.x, stick.y, fireId !== null); };

  // aim puts the stick's thumb where the pointer e is, clamped to the stick's rim.
  const aim = (e) => {
    const r = pad.base.getBoundingClientRect();
    const radius = r.width / 2;
    let x = (e.clientX - (r.left + radius)) / radius, y = (e.clientY - (r.top + radius)) / radius;
    const len = Math.hypot(x, y);
    if (len > 1) { x /= len; y /= len; }
    stick.x = x; stick.y = y;
    pad.knob.style.transform = "translate(" + (x * radius) + "px," + (y * radius) + "px)";
    send();
  };
  const letGo = () => {
    stick.id = null; stick.x = 0; stick.y = 0;
    pad.knob.style.transform = "";
    send();
  };

  const build = () => {
    const el = (cls, label) => {
      const d = document.createElement("div");
      d.className = cls;
      if (label) { d.setAttribute("role", "button"); d.setAttribute("aria-label", label); }
      return d;
    };
    const root = el("touch-pad");
    const base = el("touch-stick", "drive: drag up for forward, down for back, sideways to turn");
    const knob = el("touch-knob");
    const fire = el("touch-fire", "fire");
    fire.textContent = "FIRE";
    const hud = el("touch-hud", "show or hide the HUD");
    hud.textContent = "HUD";
    base.append(knob);
    root.append(base, fire, hud);
    hud.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      if (toggleHUD) toggleHUD();
    });
    root.hidden = true;
    document.body.append(root);

    base.addEventListener("pointerdown", (e) => {
      if (stick.id !== null) return;
      stick.id = e.pointerId;
      base.setPointerCapture(e.pointerId);
      e.preventDefault();
      aim(e);
    });
    base.addEventListener("pointermove", (e) => { if (e.pointerId === stick.id) aim(e); });
    for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) {
      base.addEventListener(end, (e) => { if (e.pointerId === stick.id) letGo(); });
    }
    fire.addEventListener("pointerdown", (e) => {
      if (fireId !== null) return;
      fireId = e.pointerId;
      fire.setPointerCapture(e.pointerId);
      fire.classList.add("held");
      e.preventDefault();
      send();
    });
    for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) {
      fire.addEventListener(end, (e) => {
        if (e.pointerId !== fireId) return;
        fireId = null;
        fire.classList.remove("held");
        send();
      });
    }
    root.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press is no menu
    return { root, base, knob };
  };

  let hudPut = false; // the HUD panel was put away once, when the controls first showed
  const show = () => {
    if (!set) return;
    pad.root.hidden = false;
    // A phone's screen has no room for the HUD panel beside the arena, and it floats over
    // the tanks: it starts put away, and the HUD button brings it back.
    if (!hudPut && toggleHUD) {
      hudPut = true;
      toggleHUD();
    }
    document.body.classList.add("touch");
    window.dispatchEvent(new Event("resize")); // the canvas's share of the page changed
  };
  const coarse = () => window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

  window.tanknetTouch = {
    // start shows the controls on a touch screen and sends their changes to setter, and
    // the HUD button's taps to hud.
    start(setter, hud) {
      set = setter;
      toggleHUD = hud;
      if (!pad) pad = build();
      if (coarse()) show();
      else window.addEventListener("touchstart", show, { once: true, passive: true });
    },
    // stop hides the controls: the match is over.
    stop() {
      set = null;
      toggleHUD = null;
      if (!pad) return;
      pad.root.hidden = true;
      document.body.classList.remove("touch");
      window.dispatchEvent(new Event("resize"));
    },
  };
})();
