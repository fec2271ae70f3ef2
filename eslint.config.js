// ESLint (flat config) for Focal's browser scripts: native ES modules under static/, served as
// they are, and the node harness of tests/static/. `make jslint` runs it (`make lint` too).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/vendor/", "node_modules/", ".venv/", "build/"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js", "tests/**/*.mjs"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.node,
    },
  },
];
