# Each workload's traffic is limited both ways by policies of its own unit: the namespace denies by
# default, so a unit deployed alone must say what it admits and what it reaches.
package main

import rego.v1

own_policy_types(workload) := {type |
	some policy in objects
	policy.kind == "NetworkPolicy"
	selects(object.get(policy.spec, ["podSelector", "matchLabels"], {}), workload.spec.template.metadata.labels)
	some type in policy.spec.policyTypes
}

deny contains msg if {
	some workload in workloads
	some direction in ["Ingress", "Egress"]
	not direction in own_policy_types(workload)
	msg := sprintf("%s: no NetworkPolicy of its own limits its %s", [id(workload), direction])
}
