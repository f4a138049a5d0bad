// Lint: TypeScript, React hooks, accessibility, no import cycles, and the layers of the app
// (components never import routes; services never import components, routes or models).
import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const layerRule = (from, disallowed, message) => ({
  from: { element: { type: from } },
  disallow: { to: { element: { types: { anyOf: disallowed } } }, dependency: { kind: "value" } },
  message,
});

const PRIVATE_BUILD_MESSAGE = "Import a package's public entry points (its exports), not files inside its build (dist).";
/** `import("pkg/dist/...")`, which no-restricted-imports does not see. */
const privateBuildImport = { selector: "ImportExpression > Literal[value=/(^|\\/)dist(\\/|$)/]", message: PRIVATE_BUILD_MESSAGE };

/** Selectors for user-facing text written as a literal in JSX (two letters or more make a word). */
function userFacingLiterals() {
  const words = "/[A-Za-z\\u00C0-\\u024F]{2,}/";
  const message = "Text people read goes in app/locales/<language>/<namespace>.json and through t() (app/i18n/translate.ts).";
  const attributes = "/^(aria-label|aria-description|aria-valuetext|aria-roledescription|title|alt|placeholder|label)$/";
  const literalIn = (context) => [
    `${context} > Literal[value=${words}]`,
    `${context} > TemplateLiteral > TemplateElement[value.raw=${words}]`,
    `${context} > ConditionalExpression > Literal[value=${words}]`,
    `${context} > LogicalExpression > Literal[value=${words}]`,
  ];
  return [
    `JSXText[value=${words}]`,
    ...literalIn("JSXElement > JSXExpressionContainer"),
    ...literalIn("JSXFragment > JSXExpressionContainer"),
    `JSXAttribute[name.name=${attributes}] > Literal[value=${words}]`,
    ...literalIn(`JSXAttribute[name.name=${attributes}] > JSXExpressionContainer`),
  ].map((selector) => ({ selector, message }));
}

export default tseslint.config(
  { ignores: ["build/", "public/build/", "app/generated/", "node_modules/", "test-output/", "data/", ".cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      // Live radio has no caption track; episode transcripts are offered beside the player instead.
      "jsx-a11y/media-has-caption": "off",
    },
  },
  {
    // Issue 19: every text a person reads comes from app/locales (t("namespace.key") or <Message>),
    // so each exists in every language. Words written straight into markup are refused here.
    files: ["app/**/*.tsx"],
    rules: {
      "no-restricted-syntax": ["error", ...userFacingLiterals(), privateBuildImport],
    },
  },
  {
    files: ["app/**/*.ts", "server/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", privateBuildImport] },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "scripts/**/*.ts"],
    plugins: { "import-x": importX, boundaries },
    settings: {
      "import-x/resolver-next": [(await import("eslint-import-resolver-typescript")).createTypeScriptImportResolver({ project: "tsconfig.json" })],
      "boundaries/elements": [
        { type: "routes", pattern: "app/routes/**" },
        { type: "components", pattern: "app/components/**" },
        { type: "hooks", pattern: "app/hooks/**" },
        { type: "models", pattern: "app/models/**" },
        { type: "services", pattern: "app/services/**" },
        { type: "utils", pattern: "app/utils/**" },
        { type: "server", pattern: "server/**" },
        { type: "widgets", pattern: "app/widgets/**" },
      ],
      "boundaries/include": ["app/**/*", "server/**/*"],
      "import/resolver": { typescript: { project: "tsconfig.json" } },
    },
    rules: {
      "import-x/no-cycle": "error",
      // Public APIs only: every package imported is declared in package.json (type-only imports are
      // not checked), and no file is reached inside a package's build ("pkg/dist/...") past its exports
      // (a package's stylesheet, imported for its URL as its docs say, is the exception).
      "import-x/no-extraneous-dependencies": [
        "error",
        { devDependencies: ["**/*.test.ts", "scripts/**", "tests/**"], optionalDependencies: false, peerDependencies: false, bundledDependencies: false },
      ],
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/dist/**", "!**/*.css"], message: PRIVATE_BUILD_MESSAGE }] }],
      // Type-only imports are allowed across layers; value imports follow the layers.
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            layerRule("components", ["routes"], "Components never import routes: move the shared code to a component, hook or util."),
            layerRule("services", ["components", "routes", "models"], "Services are below models: they never import models, routes or components."),
            layerRule("utils", ["routes", "models", "services"], "Utils are shared by client and server: they import no routes, models or services."),
            layerRule("hooks", ["routes"], "Hooks never import routes."),
            layerRule(
              "widgets",
              ["routes", "components", "hooks", "models", "services"],
              "The widget script runs on other sites: it imports only app/widgets, app/utils and the message files.",
            ),
          ],
        },
      ],
    },
  },
);
