// The lobby's catalog (GET /api/catalog): the games, their player ranges and variants, and the
// seat kinds, labelled by the server. Asked once per language and page: it changes only when the
// server does.
import { useEffect, useState } from "preact/hooks";
import type { Catalog, Lang } from "../protocol";

const asked = new Map<Lang, Promise<Catalog>>();

function load(lang: Lang): Promise<Catalog> {
  let pending = asked.get(lang);
  if (pending === undefined) {
    pending = fetch(`/api/catalog?lang=${lang}`).then(async (response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return (await response.json()) as Catalog;
    });
    // A failed answer is not kept: switching the language back asks again.
    pending.catch(() => asked.delete(lang));
    asked.set(lang, pending);
  }
  return pending;
}

/** The catalog in `lang`: while another language's is on its way the last one stays, so the
 * form keeps its choices and does not flicker; `failed` once the server could not be asked. */
export function useCatalog(lang: Lang): { catalog: Catalog | null; failed: boolean } {
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true; // a slower answer for a language left meanwhile is dropped
    load(lang)
      .then((found) => {
        if (current) {
          setCatalog(found);
          setFailed(false);
        }
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [lang]);
  return { catalog, failed };
}
