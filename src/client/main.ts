import { trackBodyHeight } from './bodyHeight';
import { enableCodeCopy } from './codeCopy';
import { enableDialogs } from './dialogs';
import { enableGallery } from './gallery';
import { afterPageLoad, loadIslandsLater } from './later';
import { rememberLangChoices } from './remember';
import { enableReveal } from './reveal';
import { countVisit } from './visits';

/*
 * The page's script. What needs no framework runs at once, the memory of the language a flag
 * chose included; React and the islands are a chunk of their own, loaded once the page has loaded
 * (or at the reader's first touch of it), so that they never take bandwidth or the main thread
 * from the page's first paint and its largest image.
 */
trackBodyHeight(document);
enableDialogs(document);
enableGallery(document);
enableReveal(document);
enableCodeCopy(document);
rememberLangChoices(document);
loadIslandsLater(document, () => import('./islands'));
afterPageLoad(() => void countVisit());
