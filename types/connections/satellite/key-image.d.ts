/**
 * A key's image for surfaces that want bitmaps (a Stream Deck through Companion Satellite):
 * its colour, and its text in its text colour, drawn with a 5×7 pixel font at the largest
 * whole scale at which the text fits, lines broken at spaces (or where a word is too long),
 * centred. RGB, 3 bytes a pixel, rows top to bottom: the format Satellite's `BITMAP` takes.
 * No canvas module: a flat colour and a bitmap font need none.
 */
/** `#rrggbb` as three bytes. */
export declare function rgbOf(color: string): [number, number, number];
/** The text in lines of at most `width` characters: broken at spaces, or inside a word longer than a line. */
export declare function linesOf(text: string, width: number): string[];
/** What a key's image is drawn from. */
export interface KeyImageJob {
    readonly size: number;
    readonly color: string;
    readonly text: string;
    readonly textColor: string;
}
/** A `size`×`size` RGB image of a key. */
export declare function keyImage(size: number, color: string, text: string, textColor: string): Buffer;
