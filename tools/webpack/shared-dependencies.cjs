'use strict';

/**
 * Module Federation `shared` map of the storefront: one instance each of React, the router, jotai, the toast
 * library and the shared state library across the shell and every remote (ARCHITECTURE.md, "Micro-front-end
 * composition") and one dialog primitive. Required versions come from the front-end's own package.json, so a remote that falls out
 * of step shows up as a version warning instead of a second copy.
 *
 * @param {{ name: string, dependencies?: Record<string, string> }} packageJson the front-end's package.json
 * @returns {Record<string, { singleton: true, requiredVersion: string, eager: false }>}
 */
function sharedDependencies(packageJson) {
  const dependencies = packageJson.dependencies ?? {};
  const versionOf = (name) => {
    const version = dependencies[name];
    if (!version) throw new Error(`${packageJson.name}: "${name}" must be a dependency to be shared`);
    return version;
  };
  const singleton = (requiredVersion) => ({ singleton: true, requiredVersion, eager: false });

  return {
    react: singleton(versionOf('react')),
    // The automatic JSX runtime is imported by every compiled component; it must be the same React.
    'react/jsx-runtime': singleton(versionOf('react')),
    'react/jsx-dev-runtime': singleton(versionOf('react')),
    'react-dom': singleton(versionOf('react-dom')),
    // Trailing slash: every deep import (react-dom/client) is shared too.
    'react-dom/': singleton(versionOf('react-dom')),
    'react-router-dom': singleton(versionOf('react-router-dom')),
    // react-router-dom re-exports react-router; both halves must be one instance for the router context.
    // They are released in lockstep, so react-router-dom's version is react-router's.
    'react-router': singleton(versionOf('react-router-dom')),
    jotai: singleton(versionOf('jotai')),
    // jotai/utils and friends hold React contexts and store helpers of their own.
    'jotai/': singleton(versionOf('jotai')),
    // toast() in a remote must reach the shell's single ToastContainer, which lives in module state.
    'react-toastify': singleton(versionOf('react-toastify')),
    '@shop/state': singleton(versionOf('@shop/state')),
    // Dialogs of every remote stack on one layer and share one focus trap and scroll lock.
    '@radix-ui/react-dialog': singleton(versionOf('@radix-ui/react-dialog')),
  };
}

module.exports = { sharedDependencies };
