import type { Keyboard } from "@raycast/api";

type MacModifier = "cmd" | "shift" | "opt" | "ctrl";

const ON_WINDOWS: Record<MacModifier, Keyboard.KeyModifier> = {
  cmd: "ctrl",
  shift: "shift",
  opt: "alt",
  ctrl: "windows",
};

/** A shortcut in its macOS form and its Windows form (⌘ as Ctrl, ⌥ as Alt): Raycast ignores a single-platform one elsewhere. */
export function shortcut(modifiers: MacModifier[], key: Keyboard.KeyEquivalent): Keyboard.Shortcut {
  return {
    macOS: { modifiers, key },
    Windows: { modifiers: modifiers.map((modifier) => ON_WINDOWS[modifier]), key },
  };
}
