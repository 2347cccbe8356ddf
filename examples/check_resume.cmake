# A resumed training run gives the same loss curve as an uninterrupted one (CTest
# example_train_mlp_resume). Run as: cmake -DTRAIN_MLP=<train_mlp> -DWORK=<folder> -P check_resume.cmake
# Trains 4 epochs of the digits data in one run; then 1 epoch with --save, 2 more resumed from
# that checkpoint (saving over it), and the last one resumed again. The per-epoch losses and
# accuracies printed (without the times) must be identical.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(common --digits --threads 1 --batch-size 64)

function(train out_var)
  execute_process(COMMAND ${TRAIN_MLP} ${common} ${ARGN}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "train_mlp ${ARGN} failed (${status}):\n${out}\n${err}")
  endif()
  string(REGEX MATCHALL "epoch [0-9]+: loss [0-9.]+, test accuracy [0-9.]+" lines "${out}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

set(ckpt ${WORK}/mlp.ckpt)
train(whole --epochs 4)
train(first --epochs 1 --save ${ckpt})
train(middle --epochs 3 --resume ${ckpt} --save ${ckpt})
train(last --epochs 4 --resume ${ckpt})
set(resumed ${first} ${middle} ${last})
list(LENGTH whole n)
if(NOT n EQUAL 4)
  message(FATAL_ERROR "the uninterrupted run printed ${n} epochs, not 4: ${whole}")
endif()
if(NOT "${whole}" STREQUAL "${resumed}")
  string(REPLACE ";" "\n  " whole "${whole}")
  string(REPLACE ";" "\n  " resumed "${resumed}")
  message(FATAL_ERROR "resuming changed the curve:\nuninterrupted:\n  ${whole}\nresumed:\n  ${resumed}")
endif()
string(REPLACE ";" "\n  " whole "${whole}")
message(STATUS "same curve, uninterrupted and resumed twice:\n  ${whole}")
