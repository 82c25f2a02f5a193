# What the API server fills in inside a list is written out: each team applies its own unit server-side
# under its own field manager, after the whole environment was applied under another; a list item the
# manifest leaves to the server's defaults then differs from the stored one, and the two managers
# conflict over the list ("conflicts with kubectl: .spec.ingress"). Written out, both apply the same.
package main

import rego.v1

deny contains msg if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	some direction in ["ingress", "egress"]
	some rule in object.get(policy.spec, direction, [])
	some port in object.get(rule, "ports", [])
	not port.protocol
	msg := sprintf("%s: a port of its %s rules names no protocol (the server adds TCP)", [id(policy), direction])
}

deny contains msg if {
	some workload in workloads
	walk(workload.spec.template, [path, value])
	value.fieldRef
	not value.fieldRef.apiVersion
	msg := sprintf("%s: fieldRef at %s names no apiVersion (the server adds v1)", [id(workload), concat(".", [sprintf("%v", [step]) | some step in path])])
}

claim_defaults := {"apiVersion": "v1", "kind": "PersistentVolumeClaim"}

deny contains msg if {
	some workload in workloads
	some claim in object.get(workload.spec, "volumeClaimTemplates", [])
	some field, value in claim_defaults
	object.get(claim, field, null) != value
	msg := sprintf("%s: volumeClaimTemplate %s has no %s: %s (the server adds it)", [id(workload), claim.metadata.name, field, value])
}

deny contains msg if {
	some workload in workloads
	some claim in object.get(workload.spec, "volumeClaimTemplates", [])
	not claim.spec.volumeMode
	msg := sprintf("%s: volumeClaimTemplate %s has no spec.volumeMode (the server adds Filesystem)", [id(workload), claim.metadata.name])
}

# An empty rule list is stored as no list at all: a second manager applying `egress: []` conflicts over it.
# Leaving it out says the same (a policy type with no rule admits nothing).
deny contains msg if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	some direction in ["ingress", "egress"]
	policy.spec[direction] == []
	msg := sprintf("%s: an empty %s list (the server stores none; leave it out)", [id(policy), direction])
}

deny contains msg if {
	some workload in workloads
	some claim in object.get(workload.spec, "volumeClaimTemplates", [])
	object.get(claim, ["status", "phase"], null) != "Pending"
	msg := sprintf("%s: volumeClaimTemplate %s has no status.phase: Pending (the server adds it)", [id(workload), claim.metadata.name])
}
