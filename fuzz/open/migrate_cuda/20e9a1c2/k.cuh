#pragma once
#define BINS 16
// Counts in[0..n) into BINS bins on the GPU (in and bins: managed memory).
void run_histogram(const unsigned *in, int n, unsigned *bins);
