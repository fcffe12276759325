// The part of linebreak (the Unicode line breaking algorithm, UAX #14, which satori breaks lines
// with) the share cards use: the package ships no types.
declare module 'linebreak' {
  /** A place a line may break: before the character at `position`; `required` after a newline. */
  export interface Break {
    position: number;
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    /** The next place a line may break, or null past the end. */
    nextBreak(): Break | null;
  }
}
