# Sourced by build_ab44.sh, build_ab45.sh and build_ab45r.sh (with P, the
# package folder, set): ab_tessc TESSC NAME FILE ARG... builds
# bench/kernels/FILE.tess into $P/NAME with TESSC (X=V args become -D X=V,
# flags pass as they are); mk NAME FILE ARG... builds NAME by the tree's
# tessc and NAME_off by $BASE, the pair ab_onoff.sh's functions compare.
ab_tessc() { ab_compiler=$1 ab_out=$2 ab_file=$3; shift 3
  ab_args=""; for x in "$@"; do case $x in -*) ab_args="$ab_args $x";; *) ab_args="$ab_args -D $x";; esac; done
  # shellcheck disable=SC2086
  $ab_compiler bench/kernels/$ab_file.tess --emit cubin,manifest --arch sm_90 -o $P/$ab_out $ab_args
}
mk() { mk_name=$1 mk_file=$2; shift 2
  ab_tessc build-dev/tessc "$mk_name" "$mk_file" "$@"
  ab_tessc "$BASE" "${mk_name}_off" "$mk_file" "$@"
}
