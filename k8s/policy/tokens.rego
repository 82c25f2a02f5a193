# Tokens: the users service alone signs them, with the private key of the Secret users-secrets
# (users.rego); every service verifies them with the public key of the ConfigMap jwt-public-key. A pod
# that held the signing key could issue an admin's token.
package main

import rego.v1

signing_key_settings := {"JWT_PRIVATE_KEY", "JWT_PRIVATE_KEY_FILE"}

# The containers of every workload but the users service's Deployment, whatever its component.
other_than_users contains c if {
	some c in containers
	id(c.workload) != "Deployment/users"
}

deny contains msg if {
	some c in other_than_users
	some variable in object.get(c.container, "env", [])
	variable.name in signing_key_settings
	msg := sprintf("%s container %s: given %s: only the users service holds the signing key", [id(c.workload), c.container.name, variable.name])
}

deny contains msg if {
	some c in other_than_users
	some place in users_secrets_read(c)
	msg := sprintf("%s container %s: reads the Secret users-secrets (%s): only the users service holds the signing key", [id(c.workload), c.container.name, place])
}

# Where a container names the Secret users-secrets: a variable, or a source of variables.
users_secrets_read(c) := {sprintf("env %s", [variable.name]) |
	some variable in object.get(c.container, "env", [])
	variable.valueFrom.secretKeyRef.name == "users-secrets"
} | {sprintf("envFrom %d", [i]) |
	some i, source in object.get(c.container, "envFrom", [])
	source.secretRef.name == "users-secrets"
}

deny contains msg if {
	some workload in workloads
	id(workload) != "Deployment/users"
	some volume in object.get(workload.spec.template.spec, "volumes", [])
	volume.secret.secretName == "users-secrets"
	msg := sprintf("%s: mounts the Secret users-secrets (volume %s): only the users service holds the signing key", [id(workload), volume.name])
}

public_key := {"configMapKeyRef": {"name": "jwt-public-key", "key": "JWT_PUBLIC_KEY"}}

deny contains msg if {
	some workload in of_component({"service"})
	container := workload.spec.template.spec.containers[0]
	[variable.valueFrom | some variable in object.get(container, "env", []); variable.name == "JWT_PUBLIC_KEY"] != [public_key]
	msg := sprintf("%s container %s: JWT_PUBLIC_KEY does not come from the ConfigMap jwt-public-key (key JWT_PUBLIC_KEY): it cannot verify the users service's tokens", [id(workload), container.name])
}
