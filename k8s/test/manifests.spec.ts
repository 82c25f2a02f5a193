import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as check from './support/checks';
import { REAL, rendererUnits, routedUnits, serviceUnits } from './support/checks';
import {
  ENVIRONMENTS,
  SCENES,
  UNITS,
  key,
  kustomizationFolders,
  kustomizeOrNothing,
  podTemplateOf,
  tool,
  unitFolder,
  workloadsOf,
} from './support/render';

/**
 * The shop's rules for its manifests, run on the real ones. Each rule lives in support/checks.ts, and
 * broken-manifests.spec.ts shows each one a manifest that breaks it. The OPA policies of k8s/policy run
 * in policy.spec.ts.
 */

const ALL_FOLDERS = kustomizationFolders();
const ROUTED_UNITS = routedUnits(REAL);
const SERVICE_UNITS = serviceUnits(REAL);
/** The server-rendering units (docs/rendering.md): the catalog's render service and the shell's page server. */
const RENDERER_UNITS = rendererUnits(REAL);
/** What is built from a workspace at its version: the routed units and the server-rendering ones. */
const RELEASED_UNITS = [...ROUTED_UNITS, ...RENDERER_UNITS];
/** Stateless parts: they scale with an HPA (the domain services, the front-ends and Kong). */
const SCALED_UNITS = UNITS.filter((unit) =>
  kustomizeOrNothing(unitFolder(unit)).some((object) => object.kind === 'Deployment'),
);
const UNIT_SCENES = SCENES.flatMap(({ scene, environment }) =>
  UNITS.map((unit) => ({ scene, environment, unit })),
);

describe('kustomize folders', () => {
  it('finds the standalone kustomize that ensure-tools installs', () => {
    expect(existsSync(tool('kustomize'))).toBe(true);
  });

  it.each(ALL_FOLDERS)('k8s/%s builds with a plain `kustomize build`', (folder) => {
    check.buildsWithKustomize(REAL, folder);
  });

  it('has a base and the dev and prod overlays', () => {
    check.hasBaseAndOverlays(ALL_FOLDERS);
  });

  it.each(SCENES)('$scene: the whole composes every unit', ({ environment }) => {
    check.wholeComposesEveryUnit(REAL, environment);
  });

  it.each(ENVIRONMENTS)('%s: each unit overlay builds on its base unit', (environment) => {
    check.unitOverlaysBuildOnTheirBase(REAL, environment);
  });

  it.each(SCENES)(
    '$scene: renders each object identically whether its unit is deployed alone or with the whole shop',
    ({ environment }) => {
      check.sameAloneAndWhole(REAL, environment);
    },
  );
});

describe('workloads', () => {
  const workloads = UNIT_SCENES.flatMap(({ scene, environment, unit }) =>
    workloadsOf(kustomizeOrNothing(unitFolder(unit, environment))).map((workload) => ({
      name: `${scene}: ${unit}: ${key(workload)}`,
      unit,
      environment,
      workload,
      pod: podTemplateOf(workload),
    })),
  );
  const containers = workloads.flatMap(({ name, unit, environment, workload, pod }) =>
    pod.spec.containers.map((container) => ({
      name: `${name} container ${container.name}`,
      unit,
      environment,
      workload,
      container,
      pod: pod.spec,
    })),
  );

  it('includes a Deployment for every domain service and front-end', () => {
    check.includesEveryRoutedUnit(ROUTED_UNITS);
  });

  it.each(containers)(
    '$name: readiness and liveness probe the endpoints its image answers them on',
    ({ unit, environment, workload, container }) => {
      check.probesAskWhatTheImageAnswers(
        REAL,
        REAL.render(unitFolder(unit, environment)),
        workload,
        container,
      );
    },
  );

  it('scales every stateless part: the services, the front-ends and Kong', () => {
    check.scalesEveryStatelessPart(SCALED_UNITS, ROUTED_UNITS);
  });

  it.each(SCALED_UNITS)('k8s/%s may run more replicas in prod than in dev, never fewer', (unit) => {
    check.moreReplicasInProd(REAL, unit);
  });
});

describe('releases', () => {
  it.each(RELEASED_UNITS)(
    "prod runs k8s/%s from its own image at exactly its package.json's version",
    (unit) => {
      check.prodRunsPackageVersion(REAL, unit);
    },
  );

  it.each(ENVIRONMENTS)(
    "%s: the shell's page server is never newer than the shell image whose files its pages load",
    (environment) => {
      check.pageServerNeverAheadOfShell(REAL, environment);
    },
  );
});

describe('server rendering', () => {
  it('has the render service of the catalog and the page server of the shell', () => {
    expect(RENDERER_UNITS).toEqual(['mf-catalog-render', 'shell-pages']);
  });

  it.each(RENDERER_UNITS)('k8s/%s admits HTTP from its one caller only, never from Kong', (unit) => {
    check.admitsHttpFromItsCallerOnly(REAL, unit);
  });

  it.each(
    SCENES.flatMap(({ scene, environment }) => RENDERER_UNITS.map((unit) => ({ scene, environment, unit }))),
  )(
    '$scene: each URL k8s/$unit is set to call names a Service and port of the shop that its policy lets it reach',
    ({ environment, unit }) => {
      check.settingsNameReachableServices(REAL, unit, environment);
    },
  );

  it.each(SCENES)(
    "$scene: the catalog's render service hears the catalogue's changes: NATS_URL names every NATS server, and its policy lets it reach them",
    ({ environment }) => {
      check.renderCacheHearsNats(REAL, 'mf-catalog-render', environment);
    },
  );

  it.each(SCENES)(
    "$scene: the shell's nginx hands pages to the page server by its full name, a Service its policy lets it reach",
    ({ environment }) => {
      check.settingsNameReachableServices(REAL, 'shell', environment, { fullNames: true });
    },
  );
});

describe('domain services', () => {
  it.each(SERVICE_UNITS)(
    'k8s/%s takes settings from its ConfigMap and MONGO_URL from a Secret only',
    (unit) => {
      check.serviceSettingsFromConfigMap(REAL, unit);
    },
  );

  it.each(SERVICE_UNITS)("k8s/%s has a development Secret naming the service's own database", (unit) => {
    check.devSecretNamesOwnDatabase(REAL, unit);
  });
});

describe('production data tier', () => {
  it.each(SERVICE_UNITS)(
    'prod: k8s/%s names every NATS server and MongoDB member, and keeps its streams on three',
    (unit) => {
      check.prodServiceNamesEveryMember(REAL, unit);
    },
  );
});

describe('users service', () => {
  it('has no committed users-secrets: the README creates it, with every key the service needs', () => {
    check.usersSecretsCreatedByTheReadme(REAL);
  });
});

describe('network policies', () => {
  it.each(SCENES)(
    "$scene: each egress rule to the shop's pods names pods that exist, on ports they declare, and that their own policies admit",
    ({ environment }) => {
      check.egressMatchesIngress(REAL, environment);
    },
  );
});

describe('Kong routes and Kubernetes Services', () => {
  it('every Kong service host that has a unit here has a Service of that exact name and port', () => {
    check.kongHostsHaveServices(REAL);
  });

  it('every routed unit here is a Kong service host with the same port', () => {
    check.routedUnitsAreKongHosts(REAL);
  });

  it.each(SCENES)(
    '$scene: Kong loads exactly gateway/kong.yml as its declarative configuration',
    ({ environment }) => {
      check.kongLoadsKongYml(REAL, environment);
    },
  );
});

describe('shell: remotes manifest and release per environment', () => {
  it.each(SCENES)(
    "$scene: remotes.json (schema 2) names each remote's version, at that version's own path",
    ({ environment }) => {
      check.remotesManifestNamesVersions(REAL, environment);
    },
  );

  it.each(ENVIRONMENTS)(
    "%s: remotes.json is the overlay's own file, the base's site.json kept",
    (environment) => {
      check.remotesManifestIsTheOverlays(REAL, environment);
    },
  );

  it.each(ENVIRONMENTS)(
    '%s: points each remote at a version its deployed image has published (never ahead of it)',
    (environment) => {
      check.remotesNeverAheadOfImages(REAL, environment);
    },
  );

  it.each(SCENES)(
    "$scene: shell-release chooses a version of the shell's image, mounted where nginx includes it",
    ({ environment }) => {
      check.shellReleaseChosen(REAL, environment);
    },
  );
});

describe('images built by docker/', () => {
  it.each(RELEASED_UNITS)("k8s/base/%s runs its image's own non-root user and port", (unit) => {
    check.runsTheImagesUserAndPort(REAL, unit);
  });
});
