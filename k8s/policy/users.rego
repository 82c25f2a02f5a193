# The users service (k8s/base/users), in every render that holds its Deployment: what it refuses to start
# without in production comes from the Secret users-secrets, none of it optional, and SMTP_URL from there
# too, optionally; no secret is in its ConfigMap; and the mail outbox it writes to without SMTP_URL is on
# a writable emptyDir. Where it may connect (its mail relay, outside) is network.rego's.
package main

import rego.v1

# What the service refuses to start without in production (services/users/src/config/users.config.ts);
# k8s/test/support/checks.ts expects the same keys in the README's command that creates users-secrets.
users_required_secrets := ["JWT_PRIVATE_KEY", "ADMIN_EMAIL", "ADMIN_PASSWORD"]

# What never goes into its ConfigMap: those, the relay's credentials and the database's URL.
users_secret_settings := array.concat(users_required_secrets, ["SMTP_URL", "MONGO_URL"])

users_deployments contains deployment if {
	some deployment in objects
	deployment.kind == "Deployment"
	deployment.metadata.name == "users"
}

# Its other objects without it: the rules below would have nothing to read.
deny contains "the unit users has no Deployment users" if {
	some item in objects
	unit_of(item) == "users"
	count(users_deployments) == 0
}

# The service's container: the first of the pod.
users_main_container(deployment) := deployment.spec.template.spec.containers[0]

# The ConfigMap its container takes its settings from (the first envFrom), when it is beside it.
users_config(deployment) := config if {
	name := users_main_container(deployment).envFrom[0].configMapRef.name
	some config in objects
	config.kind == "ConfigMap"
	config.metadata.name == name
}

# Named, and every variable of that name, from the key of that name of users-secrets.
from_users_secrets(container, name) if {
	variables := [variable | some variable in object.get(container, "env", []); variable.name == name]
	count(variables) > 0
	every variable in variables {
		variable.valueFrom.secretKeyRef.name == "users-secrets"
		variable.valueFrom.secretKeyRef.key == name
	}
}

deny contains msg if {
	some deployment in users_deployments
	container := users_main_container(deployment)
	some name in users_required_secrets
	not from_users_secrets(container, name)
	msg := sprintf("%s container %s: %s does not come from the Secret users-secrets (key %s)", [id(deployment), container.name, name, name])
}

deny contains msg if {
	some deployment in users_deployments
	container := users_main_container(deployment)
	some variable in object.get(container, "env", [])
	variable.name in users_required_secrets
	variable.valueFrom.secretKeyRef.optional == true
	msg := sprintf("%s container %s: %s must not be optional: the service refuses to start without it", [id(deployment), container.name, variable.name])
}

# SMTP_URL carries the mail relay's credentials: from users-secrets too, but optional, since without it the
# service writes each mail to its outbox instead.
deny contains msg if {
	some deployment in users_deployments
	container := users_main_container(deployment)
	not optional_from_users_secrets(container, "SMTP_URL")
	msg := sprintf("%s container %s: SMTP_URL does not come, optional, from the Secret users-secrets (key SMTP_URL)", [id(deployment), container.name])
}

optional_from_users_secrets(container, name) if {
	variables := [variable | some variable in object.get(container, "env", []); variable.name == name]
	count(variables) > 0
	every variable in variables {
		variable.valueFrom == {"secretKeyRef": {"name": "users-secrets", "key": name, "optional": true}}
	}
}

# A hash suffix, so a change of its settings rolls the pods.
deny contains msg if {
	some deployment in users_deployments
	not regex.match(`^users-config-\w+$`, users_config(deployment).metadata.name)
	msg := sprintf("%s: takes its settings from no ConfigMap users-config-<hash> beside it", [id(deployment)])
}

deny contains msg if {
	some deployment in users_deployments
	config := users_config(deployment)
	some name in users_secret_settings
	name in object.keys(object.get(config, "data", {}))
	msg := sprintf("%s: holds %s, a secret the users service takes from a Secret", [id(config), name])
}

# Without SMTP_URL the service writes each mail to MAIL_OUTBOX_DIR. The root filesystem is read-only
# (workloads.rego): the outbox lies in an emptyDir, the volume mounted deepest above it.
deny contains msg if {
	some deployment in users_deployments
	config := users_config(deployment)
	not config.data.MAIL_OUTBOX_DIR
	msg := sprintf("%s: %s sets no MAIL_OUTBOX_DIR, where the service writes mail without SMTP_URL", [id(deployment), id(config)])
}

deny contains msg if {
	some deployment in users_deployments
	outbox := users_config(deployment).data.MAIL_OUTBOX_DIR
	not in_empty_dir(deployment, outbox)
	msg := sprintf("%s container %s: MAIL_OUTBOX_DIR %s lies in no emptyDir (the root filesystem is read-only)", [id(deployment), users_main_container(deployment).name, outbox])
}

in_empty_dir(deployment, path) if {
	mounts := [mount |
		some mount in object.get(users_main_container(deployment), "volumeMounts", [])
		within(path, mount.mountPath)
	]
	deepest := max([count(mount.mountPath) | some mount in mounts])
	some mount in mounts
	count(mount.mountPath) == deepest
	some volume in deployment.spec.template.spec.volumes
	volume.name == mount.name
	volume.emptyDir
}

within(path, directory) if path == directory

within(path, directory) if startswith(path, concat("", [trim_suffix(directory, "/"), "/"]))
