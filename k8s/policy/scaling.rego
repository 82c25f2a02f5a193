# Stateless parts scale: every Deployment is scaled by an HPA and guarded by a disruption budget.
package main

import rego.v1

deployments contains deployment if {
	some deployment in objects
	deployment.kind == "Deployment"
}

# An apply must not reset what the HPA chose.
deny contains msg if {
	some deployment in deployments
	deployment.spec.replicas
	msg := sprintf("%s: sets replicas, which the HPA owns", [id(deployment)])
}

hpa_of(deployment) := [hpa |
	some hpa in objects
	hpa.kind == "HorizontalPodAutoscaler"
	hpa.spec.scaleTargetRef.kind == "Deployment"
	hpa.spec.scaleTargetRef.name == deployment.metadata.name
]

deny contains msg if {
	some deployment in deployments
	count(hpa_of(deployment)) != 1
	msg := sprintf("%s: scaled by %d HorizontalPodAutoscalers, not one", [id(deployment), count(hpa_of(deployment))])
}

deny contains msg if {
	some deployment in deployments
	some hpa in hpa_of(deployment)
	some problem, found in {
		"not autoscaling/v2": hpa.apiVersion != "autoscaling/v2",
		"scaleTargetRef is not apiVersion apps/v1": hpa.spec.scaleTargetRef.apiVersion != "apps/v1",
		"minReplicas below 2: one pod is no replica": object.get(hpa.spec, "minReplicas", 1) < 2,
		"maxReplicas not above minReplicas": hpa.spec.maxReplicas <= object.get(hpa.spec, "minReplicas", 1),
	}
	found
	msg := sprintf("%s: %s", [id(hpa), problem])
}

budgets_of(deployment) := [budget |
	some budget in objects
	budget.kind == "PodDisruptionBudget"
	selects(object.get(budget.spec, ["selector", "matchLabels"], {}), deployment.spec.template.metadata.labels)
]

deny contains msg if {
	some deployment in deployments
	count(budgets_of(deployment)) == 0
	msg := sprintf("%s: no PodDisruptionBudget selects its pods", [id(deployment)])
}

# A budget that never blocks a drain, whatever the HPA scaled to.
deny contains msg if {
	some deployment in deployments
	some budget in budgets_of(deployment)
	object.get(budget.spec, "maxUnavailable", null) != 1
	msg := sprintf("%s: maxUnavailable is not 1", [id(budget)])
}
