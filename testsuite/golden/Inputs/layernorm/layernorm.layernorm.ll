; ModuleID = 'layernorm.tess'
source_filename = "layernorm.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tessera_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @layernorm_BN4096(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias readonly %w, ptr addrspace(1) noalias readonly %b, ptr addrspace(1) noalias %y, float %eps, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %0, 2
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = mul nsw i64 %1, %4
  %6 = getelementptr float, ptr addrspace(1) %x, i64 %5
  %7 = ptrtoint ptr addrspace(1) %6 to i64
  %8 = and i64 %7, 15
  %9 = icmp eq i64 %8, 0
  %10 = or disjoint i32 %2, 3075
  %11 = icmp slt i32 %2, %N
  %12 = icmp slt i32 %10, %N
  %13 = and i1 %12, %9
  %14 = zext nneg i32 %2 to i64
  %15 = getelementptr float, ptr addrspace(1) %6, i64 %14
  br i1 %13, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %16 = load float, ptr addrspace(1) %15, align 16
  %17 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 4
  %18 = load float, ptr addrspace(1) %17, align 4
  %19 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 8
  %20 = load float, ptr addrspace(1) %19, align 8
  %21 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 12
  %22 = load float, ptr addrspace(1) %21, align 4
  %23 = getelementptr i8, ptr addrspace(1) %15, i64 4096
  %24 = load float, ptr addrspace(1) %23, align 16
  %25 = getelementptr i8, ptr addrspace(1) %15, i64 4100
  %26 = load float, ptr addrspace(1) %25, align 4
  %27 = getelementptr i8, ptr addrspace(1) %15, i64 4104
  %28 = load float, ptr addrspace(1) %27, align 8
  %29 = getelementptr i8, ptr addrspace(1) %15, i64 4108
  %30 = load float, ptr addrspace(1) %29, align 4
  %31 = getelementptr i8, ptr addrspace(1) %15, i64 8192
  %32 = load float, ptr addrspace(1) %31, align 16
  %33 = getelementptr i8, ptr addrspace(1) %15, i64 8196
  %34 = load float, ptr addrspace(1) %33, align 4
  %35 = getelementptr i8, ptr addrspace(1) %15, i64 8200
  %36 = load float, ptr addrspace(1) %35, align 8
  %37 = getelementptr i8, ptr addrspace(1) %15, i64 8204
  %38 = load float, ptr addrspace(1) %37, align 4
  %39 = getelementptr i8, ptr addrspace(1) %15, i64 12288
  %40 = load float, ptr addrspace(1) %39, align 16
  %41 = getelementptr i8, ptr addrspace(1) %15, i64 12292
  %42 = load float, ptr addrspace(1) %41, align 4
  %43 = getelementptr i8, ptr addrspace(1) %15, i64 12296
  %44 = load float, ptr addrspace(1) %43, align 8
  %45 = getelementptr i8, ptr addrspace(1) %15, i64 12300
  %46 = load float, ptr addrspace(1) %45, align 4
  %.pre5 = or disjoint i32 %2, 1024
  %.pre13 = or disjoint i32 %2, 2048
  %.pre21 = or disjoint i32 %2, 3072
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %47 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %11, i32 0) #5
  %48 = bitcast i32 %47 to float
  %49 = or disjoint i32 %2, 1
  %50 = icmp slt i32 %49, %N
  %51 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %50, i32 0) #5
  %52 = bitcast i32 %51 to float
  %53 = or disjoint i32 %2, 2
  %54 = icmp slt i32 %53, %N
  %55 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %54, i32 0) #5
  %56 = bitcast i32 %55 to float
  %57 = or disjoint i32 %2, 3
  %58 = icmp slt i32 %57, %N
  %59 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %58, i32 0) #5
  %60 = bitcast i32 %59 to float
  %61 = or disjoint i32 %2, 1024
  %62 = zext nneg i32 %61 to i64
  %63 = getelementptr float, ptr addrspace(1) %6, i64 %62
  %64 = icmp slt i32 %61, %N
  %65 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %63, i1 %64, i32 0) #5
  %66 = bitcast i32 %65 to float
  %67 = or disjoint i32 %2, 1025
  %68 = icmp slt i32 %67, %N
  %69 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %63, i1 %68, i32 0) #5
  %70 = bitcast i32 %69 to float
  %71 = or disjoint i32 %2, 1026
  %72 = icmp slt i32 %71, %N
  %73 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %63, i1 %72, i32 0) #5
  %74 = bitcast i32 %73 to float
  %75 = or disjoint i32 %2, 1027
  %76 = icmp slt i32 %75, %N
  %77 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %63, i1 %76, i32 0) #5
  %78 = bitcast i32 %77 to float
  %79 = or disjoint i32 %2, 2048
  %80 = zext nneg i32 %79 to i64
  %81 = getelementptr float, ptr addrspace(1) %6, i64 %80
  %82 = icmp slt i32 %79, %N
  %83 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %81, i1 %82, i32 0) #5
  %84 = bitcast i32 %83 to float
  %85 = or disjoint i32 %2, 2049
  %86 = icmp slt i32 %85, %N
  %87 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %81, i1 %86, i32 0) #5
  %88 = bitcast i32 %87 to float
  %89 = or disjoint i32 %2, 2050
  %90 = icmp slt i32 %89, %N
  %91 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %81, i1 %90, i32 0) #5
  %92 = bitcast i32 %91 to float
  %93 = or disjoint i32 %2, 2051
  %94 = icmp slt i32 %93, %N
  %95 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %81, i1 %94, i32 0) #5
  %96 = bitcast i32 %95 to float
  %97 = or disjoint i32 %2, 3072
  %98 = zext nneg i32 %97 to i64
  %99 = getelementptr float, ptr addrspace(1) %6, i64 %98
  %100 = icmp slt i32 %97, %N
  %101 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %99, i1 %100, i32 0) #5
  %102 = bitcast i32 %101 to float
  %103 = or disjoint i32 %2, 3073
  %104 = icmp slt i32 %103, %N
  %105 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %99, i1 %104, i32 0) #5
  %106 = bitcast i32 %105 to float
  %107 = or disjoint i32 %2, 3074
  %108 = icmp slt i32 %107, %N
  %109 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %99, i1 %108, i32 0) #5
  %110 = bitcast i32 %109 to float
  %111 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %99, i1 %12, i32 0) #5
  %112 = bitcast i32 %111 to float
  %113 = icmp slt i32 %49, %N
  %114 = icmp slt i32 %53, %N
  %115 = icmp slt i32 %57, %N
  %116 = icmp slt i32 %67, %N
  %117 = icmp slt i32 %71, %N
  %118 = icmp slt i32 %75, %N
  %119 = icmp slt i32 %85, %N
  %120 = icmp slt i32 %89, %N
  %121 = icmp slt i32 %93, %N
  %122 = icmp slt i32 %103, %N
  %123 = icmp slt i32 %107, %N
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %.pre-phi26 = phi i1 [ %123, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi24 = phi i1 [ %122, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi22 = phi i32 [ %97, %ld.edge ], [ %.pre21, %ld.tile ]
  %.pre-phi20 = phi i1 [ %121, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi18 = phi i1 [ %120, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi16 = phi i1 [ %119, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi14 = phi i32 [ %79, %ld.edge ], [ %.pre13, %ld.tile ]
  %.pre-phi12 = phi i1 [ %118, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi10 = phi i1 [ %117, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi8 = phi i1 [ %116, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi6 = phi i32 [ %61, %ld.edge ], [ %.pre5, %ld.tile ]
  %.pre-phi4 = phi i1 [ %115, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi2 = phi i1 [ %114, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi = phi i1 [ %113, %ld.edge ], [ true, %ld.tile ]
  %124 = phi float [ %48, %ld.edge ], [ %16, %ld.tile ]
  %125 = phi float [ %52, %ld.edge ], [ %18, %ld.tile ]
  %126 = phi float [ %56, %ld.edge ], [ %20, %ld.tile ]
  %127 = phi float [ %60, %ld.edge ], [ %22, %ld.tile ]
  %128 = phi float [ %66, %ld.edge ], [ %24, %ld.tile ]
  %129 = phi float [ %70, %ld.edge ], [ %26, %ld.tile ]
  %130 = phi float [ %74, %ld.edge ], [ %28, %ld.tile ]
  %131 = phi float [ %78, %ld.edge ], [ %30, %ld.tile ]
  %132 = phi float [ %84, %ld.edge ], [ %32, %ld.tile ]
  %133 = phi float [ %88, %ld.edge ], [ %34, %ld.tile ]
  %134 = phi float [ %92, %ld.edge ], [ %36, %ld.tile ]
  %135 = phi float [ %96, %ld.edge ], [ %38, %ld.tile ]
  %136 = phi float [ %102, %ld.edge ], [ %40, %ld.tile ]
  %137 = phi float [ %106, %ld.edge ], [ %42, %ld.tile ]
  %138 = phi float [ %110, %ld.edge ], [ %44, %ld.tile ]
  %139 = phi float [ %112, %ld.edge ], [ %46, %ld.tile ]
  %140 = fadd contract float %124, %125
  %141 = fadd contract float %140, %126
  %142 = fadd contract float %141, %127
  %143 = fadd contract float %142, %128
  %144 = fadd contract float %143, %129
  %145 = fadd contract float %144, %130
  %146 = fadd contract float %145, %131
  %147 = fadd contract float %146, %132
  %148 = fadd contract float %147, %133
  %149 = fadd contract float %148, %134
  %150 = fadd contract float %149, %135
  %151 = fadd contract float %150, %136
  %152 = fadd contract float %151, %137
  %153 = fadd contract float %152, %138
  %154 = fadd contract float %153, %139
  %155 = bitcast float %154 to i32
  %156 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %155, i32 1, i32 31)
  %157 = bitcast i32 %156 to float
  %158 = fadd contract float %154, %157
  %159 = bitcast float %158 to i32
  %160 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %159, i32 2, i32 31)
  %161 = bitcast i32 %160 to float
  %162 = fadd contract float %158, %161
  %163 = bitcast float %162 to i32
  %164 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %163, i32 4, i32 31)
  %165 = bitcast i32 %164 to float
  %166 = fadd contract float %162, %165
  %167 = bitcast float %166 to i32
  %168 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %167, i32 8, i32 31)
  %169 = bitcast i32 %168 to float
  %170 = fadd contract float %166, %169
  %171 = bitcast float %170 to i32
  %172 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %171, i32 16, i32 31)
  %173 = bitcast i32 %172 to float
  %174 = fadd contract float %170, %173
  %175 = zext nneg i32 %warp to i64
  %176 = getelementptr float, ptr addrspace(3) @tessera_smem, i64 %175
  store float %174, ptr addrspace(3) %176, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %177 = load float, ptr addrspace(3) @tessera_smem, align 16
  %178 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 4), align 4
  %179 = fadd contract float %177, %178
  %180 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 8), align 8
  %181 = fadd contract float %179, %180
  %182 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 12), align 4
  %183 = fadd contract float %181, %182
  %184 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), align 16
  %185 = fadd contract float %183, %184
  %186 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 20), align 4
  %187 = fadd contract float %185, %186
  %188 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 24), align 8
  %189 = fadd contract float %187, %188
  %190 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 28), align 4
  %191 = fadd contract float %189, %190
  %192 = sitofp i32 %N to float
  %193 = fdiv float %191, %192
  %194 = fsub contract float %124, %193
  %195 = fsub contract float %125, %193
  %196 = fsub contract float %126, %193
  %197 = fsub contract float %127, %193
  %198 = fsub contract float %128, %193
  %199 = fsub contract float %129, %193
  %200 = fsub contract float %130, %193
  %201 = fsub contract float %131, %193
  %202 = fsub contract float %132, %193
  %203 = fsub contract float %133, %193
  %204 = fsub contract float %134, %193
  %205 = fsub contract float %135, %193
  %206 = fsub contract float %136, %193
  %207 = fsub contract float %137, %193
  %208 = fsub contract float %138, %193
  %209 = fsub contract float %139, %193
  %210 = icmp slt i32 %.pre-phi6, %N
  %211 = icmp slt i32 %.pre-phi14, %N
  %212 = icmp slt i32 %.pre-phi22, %N
  %213 = select i1 %11, float %194, float 0.000000e+00
  %214 = select i1 %.pre-phi, float %195, float 0.000000e+00
  %215 = select i1 %.pre-phi2, float %196, float 0.000000e+00
  %216 = select i1 %.pre-phi4, float %197, float 0.000000e+00
  %217 = select i1 %210, float %198, float 0.000000e+00
  %218 = select i1 %.pre-phi8, float %199, float 0.000000e+00
  %219 = select i1 %.pre-phi10, float %200, float 0.000000e+00
  %220 = select i1 %.pre-phi12, float %201, float 0.000000e+00
  %221 = select i1 %211, float %202, float 0.000000e+00
  %222 = select i1 %.pre-phi16, float %203, float 0.000000e+00
  %223 = select i1 %.pre-phi18, float %204, float 0.000000e+00
  %224 = select i1 %.pre-phi20, float %205, float 0.000000e+00
  %225 = select i1 %212, float %206, float 0.000000e+00
  %226 = select i1 %.pre-phi24, float %207, float 0.000000e+00
  %227 = select i1 %.pre-phi26, float %208, float 0.000000e+00
  %228 = select i1 %12, float %209, float 0.000000e+00
  %229 = fmul contract float %213, %213
  %230 = fmul contract float %214, %214
  %231 = fmul contract float %215, %215
  %232 = fmul contract float %216, %216
  %233 = fmul contract float %217, %217
  %234 = fmul contract float %218, %218
  %235 = fmul contract float %219, %219
  %236 = fmul contract float %220, %220
  %237 = fmul contract float %221, %221
  %238 = fmul contract float %222, %222
  %239 = fmul contract float %223, %223
  %240 = fmul contract float %224, %224
  %241 = fmul contract float %225, %225
  %242 = fmul contract float %226, %226
  %243 = fmul contract float %227, %227
  %244 = fmul contract float %228, %228
  %245 = fadd contract float %229, %230
  %246 = fadd contract float %231, %245
  %247 = fadd contract float %232, %246
  %248 = fadd contract float %233, %247
  %249 = fadd contract float %234, %248
  %250 = fadd contract float %235, %249
  %251 = fadd contract float %236, %250
  %252 = fadd contract float %237, %251
  %253 = fadd contract float %238, %252
  %254 = fadd contract float %239, %253
  %255 = fadd contract float %240, %254
  %256 = fadd contract float %241, %255
  %257 = fadd contract float %242, %256
  %258 = fadd contract float %243, %257
  %259 = fadd contract float %244, %258
  %260 = bitcast float %259 to i32
  %261 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %260, i32 1, i32 31)
  %262 = bitcast i32 %261 to float
  %263 = fadd contract float %259, %262
  %264 = bitcast float %263 to i32
  %265 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %264, i32 2, i32 31)
  %266 = bitcast i32 %265 to float
  %267 = fadd contract float %263, %266
  %268 = bitcast float %267 to i32
  %269 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %268, i32 4, i32 31)
  %270 = bitcast i32 %269 to float
  %271 = fadd contract float %267, %270
  %272 = bitcast float %271 to i32
  %273 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %272, i32 8, i32 31)
  %274 = bitcast i32 %273 to float
  %275 = fadd contract float %271, %274
  %276 = bitcast float %275 to i32
  %277 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %276, i32 16, i32 31)
  %278 = bitcast i32 %277 to float
  %279 = fadd contract float %275, %278
  %280 = getelementptr float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 32), i64 %175
  store float %279, ptr addrspace(3) %280, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %281 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 32), align 16
  %282 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 36), align 4
  %283 = fadd contract float %281, %282
  %284 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 40), align 8
  %285 = fadd contract float %283, %284
  %286 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 44), align 4
  %287 = fadd contract float %285, %286
  %288 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 48), align 16
  %289 = fadd contract float %287, %288
  %290 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 52), align 4
  %291 = fadd contract float %289, %290
  %292 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 56), align 8
  %293 = fadd contract float %291, %292
  %294 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 60), align 4
  %295 = fadd contract float %293, %294
  %296 = fdiv float %295, %192
  %297 = fadd contract float %eps, %296
  %298 = tail call float @llvm.nvvm.rsqrt.approx.f(float %297)
  %299 = fmul contract float %213, %298
  %300 = fmul contract float %214, %298
  %301 = fmul contract float %215, %298
  %302 = fmul contract float %216, %298
  %303 = fmul contract float %217, %298
  %304 = fmul contract float %218, %298
  %305 = fmul contract float %219, %298
  %306 = fmul contract float %220, %298
  %307 = fmul contract float %221, %298
  %308 = fmul contract float %222, %298
  %309 = fmul contract float %223, %298
  %310 = fmul contract float %224, %298
  %311 = fmul contract float %225, %298
  %312 = fmul contract float %226, %298
  %313 = fmul contract float %227, %298
  %314 = fmul contract float %228, %298
  %315 = ptrtoint ptr addrspace(1) %w to i64
  %316 = and i64 %315, 15
  %317 = icmp eq i64 %316, 0
  %318 = and i1 %317, %12
  %319 = zext nneg i32 %2 to i64
  %320 = getelementptr float, ptr addrspace(1) %w, i64 %319
  br i1 %318, label %ld.tile1, label %ld.edge2

ld.tile1:                                         ; preds = %ld.tile.done
  %321 = load float, ptr addrspace(1) %320, align 16
  %322 = getelementptr inbounds nuw i8, ptr addrspace(1) %320, i64 4
  %323 = load float, ptr addrspace(1) %322, align 4
  %324 = getelementptr inbounds nuw i8, ptr addrspace(1) %320, i64 8
  %325 = load float, ptr addrspace(1) %324, align 8
  %326 = getelementptr inbounds nuw i8, ptr addrspace(1) %320, i64 12
  %327 = load float, ptr addrspace(1) %326, align 4
  %328 = zext nneg i32 %.pre-phi6 to i64
  %329 = getelementptr float, ptr addrspace(1) %w, i64 %328
  %330 = load float, ptr addrspace(1) %329, align 16
  %331 = getelementptr inbounds nuw i8, ptr addrspace(1) %329, i64 4
  %332 = load float, ptr addrspace(1) %331, align 4
  %333 = getelementptr inbounds nuw i8, ptr addrspace(1) %329, i64 8
  %334 = load float, ptr addrspace(1) %333, align 8
  %335 = getelementptr inbounds nuw i8, ptr addrspace(1) %329, i64 12
  %336 = load float, ptr addrspace(1) %335, align 4
  %337 = zext nneg i32 %.pre-phi14 to i64
  %338 = getelementptr float, ptr addrspace(1) %w, i64 %337
  %339 = load float, ptr addrspace(1) %338, align 16
  %340 = getelementptr inbounds nuw i8, ptr addrspace(1) %338, i64 4
  %341 = load float, ptr addrspace(1) %340, align 4
  %342 = getelementptr inbounds nuw i8, ptr addrspace(1) %338, i64 8
  %343 = load float, ptr addrspace(1) %342, align 8
  %344 = getelementptr inbounds nuw i8, ptr addrspace(1) %338, i64 12
  %345 = load float, ptr addrspace(1) %344, align 4
  %346 = zext nneg i32 %.pre-phi22 to i64
  %347 = getelementptr float, ptr addrspace(1) %w, i64 %346
  %348 = load float, ptr addrspace(1) %347, align 16
  %349 = getelementptr inbounds nuw i8, ptr addrspace(1) %347, i64 4
  %350 = load float, ptr addrspace(1) %349, align 4
  %351 = getelementptr inbounds nuw i8, ptr addrspace(1) %347, i64 8
  %352 = load float, ptr addrspace(1) %351, align 8
  %353 = getelementptr inbounds nuw i8, ptr addrspace(1) %347, i64 12
  %354 = load float, ptr addrspace(1) %353, align 4
  br label %ld.tile.done3

ld.edge2:                                         ; preds = %ld.tile.done
  %355 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %320, i1 %11, i32 0) #5
  %356 = bitcast i32 %355 to float
  %357 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %320, i1 %.pre-phi, i32 0) #5
  %358 = bitcast i32 %357 to float
  %359 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %320, i1 %.pre-phi2, i32 0) #5
  %360 = bitcast i32 %359 to float
  %361 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %320, i1 %.pre-phi4, i32 0) #5
  %362 = bitcast i32 %361 to float
  %363 = zext nneg i32 %.pre-phi6 to i64
  %364 = getelementptr float, ptr addrspace(1) %w, i64 %363
  %365 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %364, i1 %210, i32 0) #5
  %366 = bitcast i32 %365 to float
  %367 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %364, i1 %.pre-phi8, i32 0) #5
  %368 = bitcast i32 %367 to float
  %369 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %364, i1 %.pre-phi10, i32 0) #5
  %370 = bitcast i32 %369 to float
  %371 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %364, i1 %.pre-phi12, i32 0) #5
  %372 = bitcast i32 %371 to float
  %373 = zext nneg i32 %.pre-phi14 to i64
  %374 = getelementptr float, ptr addrspace(1) %w, i64 %373
  %375 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %374, i1 %211, i32 0) #5
  %376 = bitcast i32 %375 to float
  %377 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %374, i1 %.pre-phi16, i32 0) #5
  %378 = bitcast i32 %377 to float
  %379 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %374, i1 %.pre-phi18, i32 0) #5
  %380 = bitcast i32 %379 to float
  %381 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %374, i1 %.pre-phi20, i32 0) #5
  %382 = bitcast i32 %381 to float
  %383 = zext nneg i32 %.pre-phi22 to i64
  %384 = getelementptr float, ptr addrspace(1) %w, i64 %383
  %385 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %384, i1 %212, i32 0) #5
  %386 = bitcast i32 %385 to float
  %387 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %384, i1 %.pre-phi24, i32 0) #5
  %388 = bitcast i32 %387 to float
  %389 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %384, i1 %.pre-phi26, i32 0) #5
  %390 = bitcast i32 %389 to float
  %391 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %384, i1 %12, i32 0) #5
  %392 = bitcast i32 %391 to float
  br label %ld.tile.done3

ld.tile.done3:                                    ; preds = %ld.edge2, %ld.tile1
  %393 = phi float [ %321, %ld.tile1 ], [ %356, %ld.edge2 ]
  %394 = phi float [ %323, %ld.tile1 ], [ %358, %ld.edge2 ]
  %395 = phi float [ %325, %ld.tile1 ], [ %360, %ld.edge2 ]
  %396 = phi float [ %327, %ld.tile1 ], [ %362, %ld.edge2 ]
  %397 = phi float [ %330, %ld.tile1 ], [ %366, %ld.edge2 ]
  %398 = phi float [ %332, %ld.tile1 ], [ %368, %ld.edge2 ]
  %399 = phi float [ %334, %ld.tile1 ], [ %370, %ld.edge2 ]
  %400 = phi float [ %336, %ld.tile1 ], [ %372, %ld.edge2 ]
  %401 = phi float [ %339, %ld.tile1 ], [ %376, %ld.edge2 ]
  %402 = phi float [ %341, %ld.tile1 ], [ %378, %ld.edge2 ]
  %403 = phi float [ %343, %ld.tile1 ], [ %380, %ld.edge2 ]
  %404 = phi float [ %345, %ld.tile1 ], [ %382, %ld.edge2 ]
  %405 = phi float [ %348, %ld.tile1 ], [ %386, %ld.edge2 ]
  %406 = phi float [ %350, %ld.tile1 ], [ %388, %ld.edge2 ]
  %407 = phi float [ %352, %ld.tile1 ], [ %390, %ld.edge2 ]
  %408 = phi float [ %354, %ld.tile1 ], [ %392, %ld.edge2 ]
  %409 = fmul contract float %299, %393
  %410 = fmul contract float %300, %394
  %411 = fmul contract float %301, %395
  %412 = fmul contract float %302, %396
  %413 = fmul contract float %303, %397
  %414 = fmul contract float %304, %398
  %415 = fmul contract float %305, %399
  %416 = fmul contract float %306, %400
  %417 = fmul contract float %307, %401
  %418 = fmul contract float %308, %402
  %419 = fmul contract float %309, %403
  %420 = fmul contract float %310, %404
  %421 = fmul contract float %311, %405
  %422 = fmul contract float %312, %406
  %423 = fmul contract float %313, %407
  %424 = fmul contract float %314, %408
  %425 = ptrtoint ptr addrspace(1) %b to i64
  %426 = and i64 %425, 15
  %427 = icmp eq i64 %426, 0
  %428 = and i1 %427, %12
  %429 = zext nneg i32 %2 to i64
  %430 = getelementptr float, ptr addrspace(1) %b, i64 %429
  br i1 %428, label %ld.tile4, label %ld.edge5

ld.tile4:                                         ; preds = %ld.tile.done3
  %431 = load float, ptr addrspace(1) %430, align 16
  %432 = getelementptr inbounds nuw i8, ptr addrspace(1) %430, i64 4
  %433 = load float, ptr addrspace(1) %432, align 4
  %434 = getelementptr inbounds nuw i8, ptr addrspace(1) %430, i64 8
  %435 = load float, ptr addrspace(1) %434, align 8
  %436 = getelementptr inbounds nuw i8, ptr addrspace(1) %430, i64 12
  %437 = load float, ptr addrspace(1) %436, align 4
  %438 = zext nneg i32 %.pre-phi6 to i64
  %439 = getelementptr float, ptr addrspace(1) %b, i64 %438
  %440 = load float, ptr addrspace(1) %439, align 16
  %441 = getelementptr inbounds nuw i8, ptr addrspace(1) %439, i64 4
  %442 = load float, ptr addrspace(1) %441, align 4
  %443 = getelementptr inbounds nuw i8, ptr addrspace(1) %439, i64 8
  %444 = load float, ptr addrspace(1) %443, align 8
  %445 = getelementptr inbounds nuw i8, ptr addrspace(1) %439, i64 12
  %446 = load float, ptr addrspace(1) %445, align 4
  %447 = zext nneg i32 %.pre-phi14 to i64
  %448 = getelementptr float, ptr addrspace(1) %b, i64 %447
  %449 = load float, ptr addrspace(1) %448, align 16
  %450 = getelementptr inbounds nuw i8, ptr addrspace(1) %448, i64 4
  %451 = load float, ptr addrspace(1) %450, align 4
  %452 = getelementptr inbounds nuw i8, ptr addrspace(1) %448, i64 8
  %453 = load float, ptr addrspace(1) %452, align 8
  %454 = getelementptr inbounds nuw i8, ptr addrspace(1) %448, i64 12
  %455 = load float, ptr addrspace(1) %454, align 4
  %456 = zext nneg i32 %.pre-phi22 to i64
  %457 = getelementptr float, ptr addrspace(1) %b, i64 %456
  %458 = load float, ptr addrspace(1) %457, align 16
  %459 = getelementptr inbounds nuw i8, ptr addrspace(1) %457, i64 4
  %460 = load float, ptr addrspace(1) %459, align 4
  %461 = getelementptr inbounds nuw i8, ptr addrspace(1) %457, i64 8
  %462 = load float, ptr addrspace(1) %461, align 8
  %463 = getelementptr inbounds nuw i8, ptr addrspace(1) %457, i64 12
  %464 = load float, ptr addrspace(1) %463, align 4
  br label %ld.tile.done6

ld.edge5:                                         ; preds = %ld.tile.done3
  %465 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %430, i1 %11, i32 0) #5
  %466 = bitcast i32 %465 to float
  %467 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %430, i1 %.pre-phi, i32 0) #5
  %468 = bitcast i32 %467 to float
  %469 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %430, i1 %.pre-phi2, i32 0) #5
  %470 = bitcast i32 %469 to float
  %471 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %430, i1 %.pre-phi4, i32 0) #5
  %472 = bitcast i32 %471 to float
  %473 = zext nneg i32 %.pre-phi6 to i64
  %474 = getelementptr float, ptr addrspace(1) %b, i64 %473
  %475 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %474, i1 %210, i32 0) #5
  %476 = bitcast i32 %475 to float
  %477 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %474, i1 %.pre-phi8, i32 0) #5
  %478 = bitcast i32 %477 to float
  %479 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %474, i1 %.pre-phi10, i32 0) #5
  %480 = bitcast i32 %479 to float
  %481 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %474, i1 %.pre-phi12, i32 0) #5
  %482 = bitcast i32 %481 to float
  %483 = zext nneg i32 %.pre-phi14 to i64
  %484 = getelementptr float, ptr addrspace(1) %b, i64 %483
  %485 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %484, i1 %211, i32 0) #5
  %486 = bitcast i32 %485 to float
  %487 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %484, i1 %.pre-phi16, i32 0) #5
  %488 = bitcast i32 %487 to float
  %489 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %484, i1 %.pre-phi18, i32 0) #5
  %490 = bitcast i32 %489 to float
  %491 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %484, i1 %.pre-phi20, i32 0) #5
  %492 = bitcast i32 %491 to float
  %493 = zext nneg i32 %.pre-phi22 to i64
  %494 = getelementptr float, ptr addrspace(1) %b, i64 %493
  %495 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %494, i1 %212, i32 0) #5
  %496 = bitcast i32 %495 to float
  %497 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %494, i1 %.pre-phi24, i32 0) #5
  %498 = bitcast i32 %497 to float
  %499 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %494, i1 %.pre-phi26, i32 0) #5
  %500 = bitcast i32 %499 to float
  %501 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %494, i1 %12, i32 0) #5
  %502 = bitcast i32 %501 to float
  br label %ld.tile.done6

ld.tile.done6:                                    ; preds = %ld.edge5, %ld.tile4
  %503 = phi float [ %431, %ld.tile4 ], [ %466, %ld.edge5 ]
  %504 = phi float [ %433, %ld.tile4 ], [ %468, %ld.edge5 ]
  %505 = phi float [ %435, %ld.tile4 ], [ %470, %ld.edge5 ]
  %506 = phi float [ %437, %ld.tile4 ], [ %472, %ld.edge5 ]
  %507 = phi float [ %440, %ld.tile4 ], [ %476, %ld.edge5 ]
  %508 = phi float [ %442, %ld.tile4 ], [ %478, %ld.edge5 ]
  %509 = phi float [ %444, %ld.tile4 ], [ %480, %ld.edge5 ]
  %510 = phi float [ %446, %ld.tile4 ], [ %482, %ld.edge5 ]
  %511 = phi float [ %449, %ld.tile4 ], [ %486, %ld.edge5 ]
  %512 = phi float [ %451, %ld.tile4 ], [ %488, %ld.edge5 ]
  %513 = phi float [ %453, %ld.tile4 ], [ %490, %ld.edge5 ]
  %514 = phi float [ %455, %ld.tile4 ], [ %492, %ld.edge5 ]
  %515 = phi float [ %458, %ld.tile4 ], [ %496, %ld.edge5 ]
  %516 = phi float [ %460, %ld.tile4 ], [ %498, %ld.edge5 ]
  %517 = phi float [ %462, %ld.tile4 ], [ %500, %ld.edge5 ]
  %518 = phi float [ %464, %ld.tile4 ], [ %502, %ld.edge5 ]
  %519 = fadd contract float %409, %503
  %520 = fadd contract float %410, %504
  %521 = fadd contract float %411, %505
  %522 = fadd contract float %412, %506
  %523 = fadd contract float %413, %507
  %524 = fadd contract float %414, %508
  %525 = fadd contract float %415, %509
  %526 = fadd contract float %416, %510
  %527 = fadd contract float %417, %511
  %528 = fadd contract float %418, %512
  %529 = fadd contract float %419, %513
  %530 = fadd contract float %420, %514
  %531 = fadd contract float %421, %515
  %532 = fadd contract float %422, %516
  %533 = fadd contract float %423, %517
  %534 = fadd contract float %424, %518
  %535 = getelementptr float, ptr addrspace(1) %y, i64 %5
  %536 = ptrtoint ptr addrspace(1) %535 to i64
  %537 = and i64 %536, 15
  %538 = icmp eq i64 %537, 0
  %539 = and i1 %12, %538
  %540 = zext nneg i32 %2 to i64
  %541 = getelementptr float, ptr addrspace(1) %535, i64 %540
  br i1 %539, label %st.tile, label %st.edge

st.tile:                                          ; preds = %ld.tile.done6
  %542 = insertelement <4 x float> poison, float %519, i64 0
  %543 = insertelement <4 x float> %542, float %520, i64 1
  %544 = insertelement <4 x float> %543, float %521, i64 2
  %545 = insertelement <4 x float> %544, float %522, i64 3
  store <4 x float> %545, ptr addrspace(1) %541, align 16
  %546 = zext nneg i32 %.pre-phi6 to i64
  %547 = getelementptr float, ptr addrspace(1) %535, i64 %546
  %548 = insertelement <4 x float> poison, float %523, i64 0
  %549 = insertelement <4 x float> %548, float %524, i64 1
  %550 = insertelement <4 x float> %549, float %525, i64 2
  %551 = insertelement <4 x float> %550, float %526, i64 3
  store <4 x float> %551, ptr addrspace(1) %547, align 16
  %552 = zext nneg i32 %.pre-phi14 to i64
  %553 = getelementptr float, ptr addrspace(1) %535, i64 %552
  %554 = insertelement <4 x float> poison, float %527, i64 0
  %555 = insertelement <4 x float> %554, float %528, i64 1
  %556 = insertelement <4 x float> %555, float %529, i64 2
  %557 = insertelement <4 x float> %556, float %530, i64 3
  store <4 x float> %557, ptr addrspace(1) %553, align 16
  %558 = zext nneg i32 %.pre-phi22 to i64
  %559 = getelementptr float, ptr addrspace(1) %535, i64 %558
  %560 = insertelement <4 x float> poison, float %531, i64 0
  %561 = insertelement <4 x float> %560, float %532, i64 1
  %562 = insertelement <4 x float> %561, float %533, i64 2
  %563 = insertelement <4 x float> %562, float %534, i64 3
  store <4 x float> %563, ptr addrspace(1) %559, align 16
  br label %st.tile.done

st.edge:                                          ; preds = %ld.tile.done6
  %564 = bitcast float %519 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %541, i32 %564, i1 %11) #5
  %565 = bitcast float %520 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %541, i32 %565, i1 %.pre-phi) #5
  %566 = bitcast float %521 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %541, i32 %566, i1 %.pre-phi2) #5
  %567 = bitcast float %522 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %541, i32 %567, i1 %.pre-phi4) #5
  %568 = zext nneg i32 %.pre-phi6 to i64
  %569 = getelementptr float, ptr addrspace(1) %535, i64 %568
  %570 = bitcast float %523 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %569, i32 %570, i1 %210) #5
  %571 = bitcast float %524 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %569, i32 %571, i1 %.pre-phi8) #5
  %572 = bitcast float %525 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %569, i32 %572, i1 %.pre-phi10) #5
  %573 = bitcast float %526 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %569, i32 %573, i1 %.pre-phi12) #5
  %574 = zext nneg i32 %.pre-phi14 to i64
  %575 = getelementptr float, ptr addrspace(1) %535, i64 %574
  %576 = bitcast float %527 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %575, i32 %576, i1 %211) #5
  %577 = bitcast float %528 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %575, i32 %577, i1 %.pre-phi16) #5
  %578 = bitcast float %529 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %575, i32 %578, i1 %.pre-phi18) #5
  %579 = bitcast float %530 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %575, i32 %579, i1 %.pre-phi20) #5
  %580 = zext nneg i32 %.pre-phi22 to i64
  %581 = getelementptr float, ptr addrspace(1) %535, i64 %580
  %582 = bitcast float %531 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %581, i32 %582, i1 %212) #5
  %583 = bitcast float %532 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %581, i32 %583, i1 %.pre-phi24) #5
  %584 = bitcast float %533 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %581, i32 %584, i1 %.pre-phi26) #5
  %585 = bitcast float %534 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %581, i32 %585, i1 %12) #5
  br label %st.tile.done

st.tile.done:                                     ; preds = %st.edge, %st.tile
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.rsqrt.approx.f(float) #4

attributes #0 = { nounwind "nvvm.maxntid"="256,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { nounwind }

!llvm.ident = !{!0}
!nvvmir.version = !{!1}
!llvm.module.flags = !{!2}

!0 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!1 = !{i32 2, i32 0}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
