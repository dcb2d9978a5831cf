import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { readString, writeString } from '../../lib/storage';
import { showError } from '../../lib/toast';

/** Shows the cached copy at once, then the server's (console-screens §2.1). */
export function useCachedContent(path: string, storageKey: string) {
  const [text, setText] = useState(() => readString(storageKey) ?? '');
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api<string>(path)
      .then((content) => {
        const value = content ?? '';
        setText(value);
        writeString(storageKey, value);
      })
      .catch((e: unknown) => {
        setFailed(true);
        showError(e);
      })
      .finally(() => setLoaded(true));
  }, [path, storageKey]);
  return { text, loaded, failed };
}
