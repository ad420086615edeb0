// Conversation persistence in localStorage, one key per site origin and book.
// Storage can be missing, full or blocked (private modes, cookie settings): never throw.

const MAX_MESSAGES = 40;

export const storageKey = (origin, bookId) => `textbook-chat:v1:${origin}:${bookId}`;

export function createStore(key, getStorage = () => globalThis.localStorage) {
  const storage = () => {
    try {
      return getStorage() || null;
    } catch {
      return null; // e.g. SecurityError when storage is blocked
    }
  };
  return {
    /** @returns {{sessionId?: string, open?: boolean, messages?: object[]}} */
    load() {
      try {
        const v = JSON.parse(storage()?.getItem(key) || '{}');
        return v && typeof v === 'object' ? v : {};
      } catch {
        return {};
      }
    },
    save(state) {
      const s = storage();
      if (!s) return;
      try {
        s.setItem(key, JSON.stringify({ ...state, messages: (state.messages || []).slice(-MAX_MESSAGES) }));
      } catch (e) {
        console.warn('[textbook-chat] not saved:', e.name); // e.g. QuotaExceededError
      }
    },
    clear() {
      try {
        storage()?.removeItem(key);
      } catch {
        /* ignore */
      }
    },
  };
}
