# The rules every workload of the shop follows, whichever team owns it.
package main

import rego.v1

# The restricted Pod Security Standard, as the shop's own user and group (docs/deploy.md).
shop_id := 10001

# Requests and limits of CPU, memory and ephemeral storage, so the scheduler can place a pod and the
# kubelet evict the right one.
deny contains msg if {
	some c in containers
	some bound in ["requests", "limits"]
	some resource in ["cpu", "memory", "ephemeral-storage"]
	not c.container.resources[bound][resource]
	msg := sprintf("%s container %s: no %s in resources.%s", [id(c.workload), c.container.name, resource, bound])
}

deny contains msg if {
	some workload in workloads
	some volume in workload.spec.template.spec.volumes
	volume.emptyDir
	not volume.emptyDir.sizeLimit
	msg := sprintf("%s: emptyDir %s has no sizeLimit", [id(workload), volume.name])
}

# An emptyDir counts against its pod's ephemeral storage: the limit must hold what the volumes may hold.
deny contains msg if {
	some c in containers
	limit := c.container.resources.limits["ephemeral-storage"]
	scratch := sum([units.parse_bytes(volume.emptyDir.sizeLimit) |
		some volume in c.pod.volumes
		volume.emptyDir.sizeLimit
	])
	units.parse_bytes(limit) < scratch
	msg := sprintf(
		"%s container %s: ephemeral-storage limit %s is less than its emptyDir volumes' %d bytes",
		[id(c.workload), c.container.name, limit, scratch],
	)
}

restricted_settings(c) := {
	"runAsNonRoot": effective(c, "runAsNonRoot") == true,
	"runAsUser 10001 (numeric, so the kubelet can check runAsNonRoot)": effective(c, "runAsUser") == shop_id,
	"runAsGroup 10001": effective(c, "runAsGroup") == shop_id,
	"fsGroup 10001 on the pod": object.get(c.pod, ["securityContext", "fsGroup"], null) == shop_id,
	"seccompProfile RuntimeDefault": object.get(effective_context(c), ["seccompProfile", "type"], null) == "RuntimeDefault",
	"allowPrivilegeEscalation false": object.get(c.container, ["securityContext", "allowPrivilegeEscalation"], null) == false,
	"capabilities.drop ALL": "ALL" in object.get(c.container, ["securityContext", "capabilities", "drop"], []),
	"readOnlyRootFilesystem": object.get(c.container, ["securityContext", "readOnlyRootFilesystem"], null) == true,
}

effective_context(c) := object.union(object.get(c.pod, "securityContext", {}), object.get(c.container, "securityContext", {}))

effective(c, key) := object.get(effective_context(c), key, null)

deny contains msg if {
	some c in containers
	some setting, met in restricted_settings(c)
	not met
	msg := sprintf("%s container %s: not restricted: needs %s", [id(c.workload), c.container.name, setting])
}

shop_registry := "registry.example.com/shop/"

# A tag names one build only when it is a full release version (8.0.17, 2.12.1-alpine) or the image
# is named by its digest: mongo:8.0 or latest move when their publisher releases.
pinned(image) if regex.match(`@sha256:[0-9a-f]{64}$`, image)

pinned(image) if regex.match(`^[^@]+:v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$`, image)

deny contains msg if {
	some c in containers
	not pinned(c.container.image)
	msg := sprintf("%s container %s: image %s is not pinned to a full x.y.z version or a digest", [id(c.workload), c.container.name, c.container.image])
}

deny contains msg if {
	some c in containers
	startswith(c.container.image, shop_registry)
	name := regex.split(`[:@]`, trim_prefix(c.container.image, shop_registry))[0]
	name != unit_of(c.workload)
	msg := sprintf("%s container %s: image %s is not this unit's (%s)", [id(c.workload), c.container.name, c.container.image, unit_of(c.workload)])
}

# What the shop builds itself (its services, front-ends and server renderers) runs the image of its unit
# from the shop's registry, at a release version: no digest, no other registry. Beside the two rules above,
# which say the tag is pinned and the name the unit's.
deny contains msg if {
	some workload in of_component({"service", "frontend", "renderer"})
	image := workload.spec.template.spec.containers[0].image
	pinned(image)
	not shop_release(image)
	msg := sprintf("%s: image %s is not a release of the shop's own (%s<unit>:x.y.z)", [id(workload), image, shop_registry])
}

shop_release(image) if {
	startswith(image, shop_registry)
	regex.match(`^[^:@/]+:\d+\.\d+\.\d+$`, trim_prefix(image, shop_registry))
}

# A ServiceAccount of its own unit, and no API token mounted: no pod of the shop talks to the API server.
deny contains msg if {
	some workload in workloads
	object.get(workload.spec.template.spec, "serviceAccountName", "default") != unit_of(workload)
	msg := sprintf("%s: runs as ServiceAccount %s, not its own (%s)", [id(workload), object.get(workload.spec.template.spec, "serviceAccountName", "default"), unit_of(workload)])
}

deny contains msg if {
	some workload in workloads
	object.get(workload.spec.template.spec, "automountServiceAccountToken", true) != false
	msg := sprintf("%s: the pod mounts an API token (automountServiceAccountToken is not false)", [id(workload)])
}

deny contains msg if {
	some workload in workloads
	name := workload.spec.template.spec.serviceAccountName
	not service_account(name)
	msg := sprintf("%s: no ServiceAccount %s beside it", [id(workload), name])
}

deny contains msg if {
	some account in objects
	account.kind == "ServiceAccount"
	object.get(account, "automountServiceAccountToken", true) != false
	msg := sprintf("%s: mounts an API token (automountServiceAccountToken is not false)", [id(account)])
}

service_account(name) if {
	some account in objects
	account.kind == "ServiceAccount"
	account.metadata.name == name
}

# Replicas on different nodes: an anti-affinity on the hostname that selects the workload's own pods.
# Preferred, so a small cluster still schedules them, or required.
anti_affinity_terms(pod) := array.concat(
	[term.podAffinityTerm | some term in object.get(pod, ["affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution"], [])],
	object.get(pod, ["affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution"], []),
)

deny contains msg if {
	some workload in workloads
	not spread_by_hostname(workload)
	msg := sprintf("%s: no pod anti-affinity on kubernetes.io/hostname selecting its own pods", [id(workload)])
}

spread_by_hostname(workload) if {
	some term in anti_affinity_terms(workload.spec.template.spec)
	term.topologyKey == "kubernetes.io/hostname"
	selects(object.get(term, ["labelSelector", "matchLabels"], {}), workload.spec.template.metadata.labels)
}
