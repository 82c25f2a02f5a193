# What every rule of the shop's manifests reads. conftest runs them on a `kustomize build` with
# `--combine`: `input` is a list of files, `{path, contents}`, whose contents are one object or, for a
# file of several documents, the list of them.
package main

import rego.v1

objects contains object if {
	some file in input
	is_array(file.contents)
	some object in file.contents
}

objects contains object if {
	some file in input
	is_object(file.contents)
	object := file.contents
}

workload_kinds := {"Deployment", "StatefulSet"}

workloads contains object if {
	some object in objects
	object.kind in workload_kinds
}

# "Deployment/orders": how a message names an object.
id(object) := sprintf("%s/%s", [object.kind, object.metadata.name])

# Every container of a workload's pods, with the workload and the pod spec it runs in.
containers contains {"workload": workload, "pod": workload.spec.template.spec, "container": container} if {
	some workload in workloads
	some container in workload.spec.template.spec.containers
}

containers contains {"workload": workload, "pod": workload.spec.template.spec, "container": container} if {
	some workload in workloads
	some container in workload.spec.template.spec.initContainers
}

# The unit an object belongs to: its k8s/base folder, which every object is labelled with.
unit_of(object) := object.metadata.labels["app.kubernetes.io/name"]

# Whether a label selector's labels are all on the pod (an empty or missing selector selects nothing here).
selects(match_labels, pod_labels) if {
	count(match_labels) > 0
	every name, value in match_labels {
		pod_labels[name] == value
	}
}

# What holds of every folder of k8s/ (committed.rego) holds of the shop's renders too.
deny contains msg if {
	some msg in data.committed.deny
}
