import { type Diagnostic, diagnostic } from '../diagnostics/diagnostic';
import { faultText } from '../diagnostics/failure';

/**
 * A rule that fails (a fault of the tool on some content it did not foresee) is reported as a
 * diagnostic on `file` (the content as a whole, or the one edition it was judging), and the other
 * rules still run: the owner gets a report, not a stack trace.
 */
export function guarded(rule: string, run: () => Diagnostic[], file = 'content'): Diagnostic[] {
  try {
    return run();
  } catch (error) {
    return [diagnostic('INTERNAL001', { file, line: 0, column: 0 }, { kind: 'check', rule, fault: faultText(error) })];
  }
}
