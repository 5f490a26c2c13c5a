// syclify validate --time: a CUPTI injection library that records the GPU
// time of every kernel a process runs. It is compiled by `syclify validate`
// (with nvcc, against the CUDA toolkit's CUPTI) and loaded by the CUDA driver
// through CUDA_INJECTION64_PATH into both builds of a program: the nvcc build
// and the SYCL build (AdaptiveCpp's CUDA backend and DPC++'s CUDA plugin run
// on the same driver), so both sides are measured by the same clock and the
// same tool, without changing either program.
//
// At exit it writes one line per kernel to the file named by
// SYCLIFY_KERNEL_TIMES:
//
//   start_ns <TAB> end_ns <TAB> gx,gy,gz <TAB> bx,by,bz <TAB> demangled name
//
// Records come from CUPTI's activity API (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
// which timestamps kernels on the GPU and needs no access to performance
// counters. The record is read through CUpti_ActivityKernel4, whose fields
// are a prefix of every later version of the record (CUPTI appends fields).
#include <cupti_activity.h>

#include <cxxabi.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

namespace {
struct kernel_record {
  unsigned long long start, end;
  unsigned grid[3], block[3];
  std::string name;
};
std::mutex records_mutex;
std::vector<kernel_record> records;
bool lost_records = false;
const size_t buffer_size = 8u << 20;

std::string demangle(const char *name) {
  if (name == nullptr)
    return "?";
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || d == nullptr)
    return name;
  std::string s(d);
  free(d);
  return s;
}

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = static_cast<uint8_t *>(aligned_alloc(8, buffer_size));
  *size = *buffer ? buffer_size : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t valid) {
  std::vector<kernel_record> got;
  CUpti_Activity *record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const CUpti_ActivityKernel4 *k = reinterpret_cast<const CUpti_ActivityKernel4 *>(record);
    got.push_back(kernel_record{k->start,
                                k->end,
                                {unsigned(k->gridX), unsigned(k->gridY), unsigned(k->gridZ)},
                                {unsigned(k->blockX), unsigned(k->blockY), unsigned(k->blockZ)},
                                demangle(k->name)});
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped > 0)
    lost_records = true;
  free(buffer);
  std::lock_guard<std::mutex> lock(records_mutex);
  records.insert(records.end(), got.begin(), got.end());
}

void write_records() {
  cuptiActivityFlushAll(1);
  const char *path = getenv("SYCLIFY_KERNEL_TIMES");
  if (path == nullptr || *path == 0)
    return;
  FILE *f = fopen(path, "w");
  if (f == nullptr)
    return;
  std::lock_guard<std::mutex> lock(records_mutex);
  if (lost_records)
    fprintf(f, "# records were dropped\n");
  for (const kernel_record &r : records) {
    std::string name = r.name;
    for (char &c : name)
      if (c == '\t' || c == '\n')
        c = ' ';
    fprintf(f, "%llu\t%llu\t%u,%u,%u\t%u,%u,%u\t%s\n", r.start, r.end, r.grid[0], r.grid[1], r.grid[2], r.block[0],
            r.block[1], r.block[2], name.c_str());
  }
  fclose(f);
}
} // namespace

// Called by the CUDA driver when it loads the library (CUDA_INJECTION64_PATH).
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS)
    return 0;
  if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS)
    return 0;
  atexit(write_records);
  return 1;
}
