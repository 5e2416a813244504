# Sourced by the measure-*.sh scripts: a scratch HOME, runtime folder and store in a new temporary
# folder $T, and a private PulseAudio server on it with a 48 kHz null sink named `test`, whose PID
# is $PA; returns once the server answers. The caller sets its own EXIT trap (kill $PA, rm -rf $T).
T=$(mktemp -d)
export HOME=$T/home XDG_RUNTIME_DIR=$T/run WIDGETWEAVER_HOME=$T/store
mkdir -p "$HOME"; install -d -m700 "$XDG_RUNTIME_DIR"
pulseaudio -n --daemonize=no --exit-idle-time=-1 --enable-memfd=no --log-target=stderr \
  --load=module-native-protocol-unix --load="module-null-sink sink_name=test rate=48000 norewinds=1" 2>"$T/pa.log" &
PA=$!
until pactl info >/dev/null 2>&1; do sleep 0.05; done
