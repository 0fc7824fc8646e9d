// The page's localStorage, guarded so that storage never stops the game.
//
// Two ways storage fails in a real browser, and what the game does:
//   - blocked: reading `localStorage` throws (SecurityError: the user blocks site data, or a privacy mode
//     does): nothing is read or written, the game plays with nothing saved;
//   - full: setItem throws (QuotaExceededError: another page on the same origin, or a big damaged save,
//     filled it): the game first frees what is its own to free (`frees`, in order), then plays on in memory.
// Either way `onChange` is called, so that the page can say so. `full` lasts while some key's latest
// write failed: a later write of that key that succeeds (room was made), or its removal, ends it.

const QUOTA_NAMES = new Set(["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"]);
const isQuota = (err) => QUOTA_NAMES.has(err?.name) || err?.code === 22 || err?.code === 1014;

export const store = {
  blocked: false,
  unsaved: new Set(), // the keys whose latest write did not fit
  onChange: () => {},

  get full() {
    return this.unsaved.size > 0;
  },

  // The storage area, or null when the browser refuses it (then blocked from here on).
  area() {
    if (this.blocked) return null;
    try {
      const area = window.localStorage;
      if (!area) throw new DOMException("no localStorage", "SecurityError");
      return area;
    } catch (err) {
      this.fail(err);
      return null;
    }
  },

  get(key) {
    try {
      return this.area()?.getItem(key) ?? null;
    } catch (err) {
      this.fail(err);
      return null;
    }
  },

  remove(key) {
    try {
      this.area()?.removeItem(key);
      if (this.unsaved.delete(key)) this.onChange();
    } catch (err) {
      this.fail(err);
    }
  },

  // Writes key; when the storage is full, runs each of `frees` (what the game may throw away to make room)
  // and tries again after each. True when written.
  set(key, value, frees = []) {
    for (const free of [null, ...frees]) {
      const area = this.area();
      if (!area) return false;
      try {
        free?.();
        area.setItem(key, value);
        if (this.unsaved.delete(key)) this.onChange();
        return true;
      } catch (err) {
        if (!isQuota(err)) {
          this.fail(err);
          return false;
        }
      }
    }
    if (!this.unsaved.has(key)) {
      console.warn(`storage is full: ${key} was not saved; the game goes on in memory`);
      this.unsaved.add(key);
      this.onChange();
    }
    return false;
  },

  // Anything but a full storage means the browser does not let this page store: stop trying.
  fail(err) {
    if (this.blocked) return;
    console.warn("storage is blocked: nothing is saved", err);
    this.blocked = true;
    this.onChange();
  },
};

// sessionStorage, for the page's one-reload flag: blocked or full, the flag is not kept (set says false).
export const session = {
  get(key) {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      window.sessionStorage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  },
  remove(key) {
    try {
      window.sessionStorage.removeItem(key);
    } catch {
      // nothing was kept
    }
  },
};
