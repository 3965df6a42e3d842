import { isRgbColour } from "../src/resources/fields";
import { MAX_COLOUR_INPUT_LENGTH, toRgbColour } from "../src/colour";

describe("toRgbColour", () => {
  it.each([
    ["#10203f", "rgb(16,32,63)"],
    ["#FFFFFF", "rgb(255,255,255)"],
    ["a0B0c0", "rgb(160,176,192)"],
    ["  #000000\n", "rgb(0,0,0)"],
  ])("writes the picker's %j as the API's %j, which the client's check accepts", (picked, written) => {
    expect(toRgbColour(picked)).toBe(written);
    expect(isRgbColour(written)).toBe(true);
  });

  it.each(["rgb(1,2,3)", " rgb(1, 2, 3) ", "red", "#fff", "#1234567", "##123456", "#12345g", "", " "])(
    "returns %j as given, for the client's check to judge",
    (typed) => {
      expect(toRgbColour(typed)).toBe(typed);
    },
  );

  it("returns text longer than the cap as given, without reading it as a colour", () => {
    const padded = `${" ".repeat(MAX_COLOUR_INPUT_LENGTH)}#ffffff`;
    expect(toRgbColour(padded)).toBe(padded);
    const huge = `#${"f".repeat(5_000_000)}`;
    expect(toRgbColour(huge)).toBe(huge);
  });
});
