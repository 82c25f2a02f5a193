# What holds of everything a folder of k8s/ renders, not only of the shop's units: the examples' Secrets
# and the platform's deploy identities too. No private key: the users service's signing key comes from a
# key pair made for each cluster (k8s/README.md, "Secrets"), and one committed here would sign admin
# tokens for anyone who reads it. Package main takes these rules in for the shop's renders; a folder that
# is not the shop's runs them alone: `kustomize build k8s/examples/dev-secrets | conftest test --combine
# --policy k8s/policy --namespace committed -`.
package committed

import data.main
import rego.v1

holds_private_key(text) if contains(text, "PRIVATE KEY-----")

deny contains msg if {
	some item in main.objects
	walk(item, [path, value])
	is_string(value)
	holds_private_key(value)
	msg := sprintf("%s: a private key at %s", [main.id(item), concat(".", [sprintf("%v", [step]) | some step in path])])
}

# A Secret's data is base64: decoded, it holds no key either.
deny contains msg if {
	some item in main.objects
	item.kind == "Secret"
	some name, value in object.get(item, "data", {})
	base64.is_valid(value)
	holds_private_key(base64.decode(value))
	msg := sprintf("%s: a private key at data.%s (decoded from base64)", [main.id(item), name])
}
