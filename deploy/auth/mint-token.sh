#!/usr/bin/env bash
# Mints an RS256 bearer token for Cairn, for local testing only (real deployments take tokens from their
# identity provider). Needs bash and openssl.
#
#   deploy/auth/mint-token.sh -k private-key.pem -i https://cairn.local -g cairn-writer -w acme,globex [-a cairn] [-s alice] [-t 3600]
#
#   -k  PEM private key whose public half the service verifies with (mp.jwt.verify.publickey.location)
#   -i  issuer, must equal mp.jwt.verify.issuer
#   -a  audience, must be one of mp.jwt.verify.audiences (default: cairn, as the local overlay expects)
#   -g  groups (roles), comma separated: cairn-reader, cairn-writer, cairn-admin
#   -w  workspaces the token may see, comma separated, or '*' for all
#   -s  subject (default: local-user); -t lifetime in seconds (default and the service's maximum: 3600)
set -euo pipefail

usage="usage: $0 -k key.pem -i issuer -g groups -w workspaces [-a audience] [-s subject] [-t seconds]"
key="" issuer="" audience="cairn" groups="" workspaces="" subject="local-user" ttl=3600
while getopts "k:i:a:g:w:s:t:" opt; do
  case "$opt" in
    k) key="$OPTARG" ;; i) issuer="$OPTARG" ;; a) audience="$OPTARG" ;; g) groups="$OPTARG" ;;
    w) workspaces="$OPTARG" ;; s) subject="$OPTARG" ;; t) ttl="$OPTARG" ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
if [[ -z "$key" || -z "$issuer" ]]; then
  echo "$usage" >&2
  exit 2
fi

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
json_list() {
  local IFS=',' out="" item
  for item in $1; do out+="${out:+,}\"${item}\""; done
  printf '[%s]' "$out"
}
if [[ "$workspaces" == "*" ]]; then scope='"*"'; else scope=$(json_list "$workspaces"); fi

now=$(date +%s)
header='{"alg":"RS256","typ":"JWT"}'
payload=$(printf '{"iss":"%s","aud":"%s","sub":"%s","upn":"%s","groups":%s,"workspaces":%s,"iat":%d,"exp":%d,"jti":"%s"}' \
  "$issuer" "$audience" "$subject" "$subject" "$(json_list "$groups")" "$scope" "$now" "$((now + ttl))" "$(openssl rand -hex 8)")
signing_input="$(printf '%s' "$header" | b64url).$(printf '%s' "$payload" | b64url)"
signature=$(printf '%s' "$signing_input" | openssl dgst -sha256 -sign "$key" -binary | b64url)
printf '%s.%s\n' "$signing_input" "$signature"
