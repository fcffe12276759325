import { useSyncExternalStore } from 'react';
import { visits } from '../../src/client/visits';
import type { Lang } from '../../src/shared/lang';

export interface VisitCounterProps {
  lang: Lang;
  comingSoon: string;
}

/** The visit count once the API has answered; 'Coming soon' before, and where there is no API. */
export function VisitCounter({ lang, comingSoon }: VisitCounterProps) {
  const count = useSyncExternalStore(visits.subscribe, visits.get, visits.getServer);
  return (
    <span className="visit-counter" aria-live="polite">
      {count === undefined ? comingSoon : new Intl.NumberFormat(lang === 'pt' ? 'pt-PT' : 'en-GB').format(count)}
    </span>
  );
}
