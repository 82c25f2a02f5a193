'use strict';

/**
 * Module Federation `shared` map of the storefront: one instance each of React, the router, jotai, the toast
 * library and the shared state library across the shell and every remote (docs/code-layout.md, "Front-ends")
 * and one dialog primitive. Required versions come from the front-end's own package.json, so a remote that falls out
 * of step shows up as a version warning instead of a second copy.
 *
 * The host bundles its own copies of what every first screen runs (React, the router, jotai, `@shop/state`)
 * into its entry: eager, so its start-up fetches no chunk of shared code and its first screen is one script
 * (on a first load the host is the only provider anyway, and these are singletons the remotes take from it).
 * Everything else, and everything in a remote, stays lazy: a remote's copy is only a fallback, fetched if no
 * shell provides the key.
 *
 * @param {{ name: string, dependencies?: Record<string, string> }} packageJson the front-end's package.json
 * @param {{ host?: boolean }} [options] `host`: the shell's build (the first screen's libraries eager)
 * @returns {Record<string, { singleton: true, requiredVersion: string, eager: boolean, import?: string, version?: string }>}
 */
function sharedDependencies(packageJson, { host = false } = {}) {
  const dependencies = packageJson.dependencies ?? {};
  const versionOf = (name) => {
    const version = dependencies[name];
    if (!version) throw new Error(`${packageJson.name}: "${name}" must be a dependency to be shared`);
    return version;
  };
  const singleton = (requiredVersion, firstScreen = false) => ({
    singleton: true,
    requiredVersion,
    eager: host && firstScreen,
  });

  return {
    react: singleton(versionOf('react'), true),
    // The automatic JSX runtime is imported by every compiled component; it must be the same React.
    'react/jsx-runtime': singleton(versionOf('react'), true),
    // Development builds' JSX runtime (production never imports it), eager in the host for the same reason.
    'react/jsx-dev-runtime': singleton(versionOf('react'), true),
    'react-dom': singleton(versionOf('react-dom'), true),
    // Trailing slash: every deep import (react-dom/client) is shared too.
    'react-dom/': singleton(versionOf('react-dom'), true),
    // The router context must be one instance for the whole page. What is shared under this key is the
    // subset of the API the storefront uses (shared-react-router-dom.mjs), tree-shaken from react-router,
    // which react-router-dom re-exports; its version is the installed package's, so a remote built
    // against another major still shows up as a version warning.
    'react-router-dom': {
      ...singleton(versionOf('react-router-dom'), true),
      import: require.resolve('./shared-react-router-dom.mjs'),
      version: installedVersion('react-router-dom'),
    },
    jotai: singleton(versionOf('jotai'), true),
    // jotai/utils and friends hold React contexts and store helpers of their own.
    'jotai/': singleton(versionOf('jotai'), true),
    // toast() in a remote must reach the shell's single ToastContainer, which lives in module state.
    'react-toastify': singleton(versionOf('react-toastify')),
    '@shop/state': singleton(versionOf('@shop/state'), true),
    // Dialogs of every remote stack on one layer and share one focus trap and scroll lock.
    '@radix-ui/react-dialog': singleton(versionOf('@radix-ui/react-dialog')),
  };
}

/** The version of a package as installed for the workspace (what the builds bundle). */
function installedVersion(name) {
  return require(`${name}/package.json`).version;
}

module.exports = { sharedDependencies };
