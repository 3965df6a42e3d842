/**
 * The longest text read as a colour: a `#rrggbb` with room for blanks around it. Longer text is
 * returned as given, unread, for the client's check to refuse.
 */
export const MAX_COLOUR_INPUT_LENGTH = 64;

const HEX_COLOUR = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

/**
 * A colour picker's `#rrggbb` (or `rrggbb`, any case, blanks around it ignored) as the API's
 * `rgb(r,g,b)`; any other text is returned as given, for the client's check to judge and name.
 */
export function toRgbColour(colour: string): string {
  if (colour.length > MAX_COLOUR_INPUT_LENGTH) return colour;
  const hex = HEX_COLOUR.exec(colour.trim());
  if (!hex) return colour;
  return `rgb(${hex
    .slice(1)
    .map((pair) => parseInt(pair, 16))
    .join(",")})`;
}
