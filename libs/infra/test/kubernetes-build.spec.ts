import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM without types: the installer runs before anything is built
import { kubernetesStagingModules } from '../install/builders.mjs';

// The shape of k8s.io/kubernetes' own go.mod: its staging modules are replaced by folders of its own,
// which `go install` refuses; the control plane's build replaces each with its published version.
const KUBERNETES_GO_MOD = `module k8s.io/kubernetes

go 1.24.0

require (
	k8s.io/api v0.0.0
	k8s.io/client-go v0.0.0
	sigs.k8s.io/yaml v1.6.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	k8s.io/kube-openapi => k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b
)
`;

describe('the control plane build', () => {
  it('replaces exactly the modules k8s.io/kubernetes keeps in its staging folder', () => {
    expect(kubernetesStagingModules(KUBERNETES_GO_MOD)).toEqual(['k8s.io/api', 'k8s.io/client-go']);
  });
});
