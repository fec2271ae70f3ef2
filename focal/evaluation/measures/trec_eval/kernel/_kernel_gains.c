/* trec_eval's cumulated-gain families in C, one topic at a time (_kernel_measures.h).
 * Placeholder: none yet. */
#include "_kernel_measures.h"

const FamilyEntry GAIN_FAMILIES[] = {{NULL, NULL}};
const int GAIN_FAMILY_COUNT = 0;
