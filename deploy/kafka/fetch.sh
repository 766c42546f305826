#!/usr/bin/env bash
# Resolve Apache Kafka (org.apache.kafka:kafka_2.13) and its runtime from Maven Central into
# $TABLESERVER_KAFKA_LIBS/VERSION. Does nothing when they are already there.
set -euo pipefail
cd "$(dirname "$0")/../.."
. deploy/settings.sh
libs="$TABLESERVER_KAFKA_LIBS/$TABLESERVER_KAFKA_VERSION"
[ -f "$libs/.complete" ] && exit 0
if ! command -v java >/dev/null; then
  need_root_to_install openjdk-17-jre-headless "Java (17 or newer)"
  echo "installing Java (openjdk-17-jre-headless) …"
  apt_install openjdk-17-jre-headless
fi
if ! command -v mvn >/dev/null; then
  need_root_to_install maven "Maven (to fetch Kafka from Maven Central)"
  echo "installing Maven …"
  apt_install maven
fi
echo "fetching Apache Kafka $TABLESERVER_KAFKA_VERSION from Maven Central …"
rm -rf "$libs"
mkdir -p "$libs"
mvn -q -B -Dstyle.color=never -f deploy/kafka/pom.xml -Dkafka.version="$TABLESERVER_KAFKA_VERSION" \
  dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$libs"
touch "$libs/.complete"
